package clientdriver

import (
	"context"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

// errorRules map what the harness's client returns (a *client.Error, or a
// card this driver could not parse) to the contract's error classes, the
// kit's way (clientkit.Classify): the first rule that matches anywhere in
// the chain wins. A deadline comes first, also under a transport error.
var errorRules = []clientkit.Rule{
	{Match: func(e error) bool { return e == context.DeadlineExceeded }, Class: contract.ClassTimeout},
	{Match: kind(a2a.ErrTaskNotFound), Class: contract.ClassTaskNotFound},
	{Match: kind(a2a.ErrUnsupportedOperation, a2a.ErrPushNotificationNotSupported), Class: contract.ClassUnsupportedOperation},
	{Match: clientErr(func(ce *client.Error) bool { return ce.Code == -32602 || ce.Status == "INVALID_ARGUMENT" }), Class: contract.ClassInvalidParams},
	{Match: clientErr(func(ce *client.Error) bool { return ce.HTTPStatus == 401 || ce.HTTPStatus == 403 }), Class: contract.ClassAuth},
	{Match: clientErr(func(ce *client.Error) bool { return ce.Class == client.Transport }), Class: contract.ClassTransport},
	{Match: clientErr(func(ce *client.Error) bool { return ce.Class == client.Protocol }), Class: contract.ClassProtocol},
	{Match: func(e error) bool { _, ok := e.(*parseError); return ok }, Class: contract.ClassParse},
}

func clientErr(f func(*client.Error) bool) func(error) bool {
	return func(e error) bool {
		ce, ok := e.(*client.Error)
		return ok && f(ce)
	}
}

func kind(ks ...a2a.ErrorKind) func(error) bool {
	return clientErr(func(ce *client.Error) bool {
		for _, k := range ks {
			if ce.Kind == k {
				return true
			}
		}
		return false
	})
}

// classify is the class of what the client raised.
func classify(err error) string { return clientkit.Classify(err, errorRules) }

// parseError is a body this client could not read (a card, a strict
// variant's refusal).
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

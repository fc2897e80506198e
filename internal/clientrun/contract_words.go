package clientrun

import "github.com/a2a-conform/a2a-conform/internal/clientrun/contract"

// The driver contract's words live in package contract, which imports
// nothing of the stage, so that a driver (the reference one included)
// links without the scripted agent; they are named here as well for the
// stage and the specs.

const (
	ActionSend                = contract.ActionSend
	ActionStream              = contract.ActionStream
	ActionPoll                = contract.ActionPoll
	ActionCancel              = contract.ActionCancel
	ActionFollowUp            = contract.ActionFollowUp
	ActionSubscribe           = contract.ActionSubscribe
	ActionPush                = contract.ActionPush
	ActionResolve             = contract.ActionResolve
	ActionPushCancel          = contract.ActionPushCancel
	ActionList                = contract.ActionList
	ActionPushDefault         = contract.ActionPushDefault
	ActionExtendedCard        = contract.ActionExtendedCard
	ClassTaskNotFound         = contract.ClassTaskNotFound
	ClassUnsupportedOperation = contract.ClassUnsupportedOperation
	ClassInvalidParams        = contract.ClassInvalidParams
	ClassProtocol             = contract.ClassProtocol
	ClassTransport            = contract.ClassTransport
	ClassAuth                 = contract.ClassAuth
	ClassParse                = contract.ClassParse
	ClassTimeout              = contract.ClassTimeout
	ClassOther                = contract.ClassOther
)

// Actions are the contract's actions, in the order docs/client-driver.md lists them.
var Actions = contract.Actions

type (
	Result          = contract.Result
	ResultError     = contract.ResultError
	Event           = contract.Event
	ChosenInterface = contract.ChosenInterface
)

// ParseResult reads a driver's result line (contract.ParseResult).
func ParseResult(out []byte) (*Result, string) { return contract.ParseResult(out) }

// Terminal says whether a state the driver reported is terminal (contract.Terminal).
func Terminal(state string) bool { return contract.Terminal(state) }

// Package schemas judges A2A v1.0 wire documents against JSON Schemas (draft
// 2020-12) that a2a-conform wrote from specification/a2a.proto (see README.md
// for the commit and every judgement call), and reports each breach as an
// invariants.Violation that carries the JSON pointer of the offending value.
//
// The schemas live in one embedded document, a2a-v1.schema.json. Every $defs
// entry whose name starts with an upper-case letter is an entry point, named by
// the constants below. They are compiled once, on first use, by one private
// compiler with format and content assertions on; compiled schemas are
// read-only and safe for concurrent use.
package schemas

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

//go:embed a2a-v1.schema.json
var schemaDoc []byte

// SchemaID is the $id of the embedded schema document; entry point N is
// SchemaID + "#/$defs/" + N.
const SchemaID = "https://github.com/a2a-conform/a2a-conform/schemas/a2a-v1.schema.json"

// Invariant is the Invariant of every violation this package reports.
const Invariant = "schema"

// MaxDocumentSize bounds what Validate will parse: a larger document is one
// violation, not an allocation an agent controls. Callers cap bodies lower;
// this is the backstop.
const MaxDocumentSize = 32 << 20

// Entry points: A2A v1.0 objects (lf.a2a.v1 message names).
const (
	AgentCard                               = "AgentCard"
	AgentInterface                          = "AgentInterface"
	AgentProvider                           = "AgentProvider"
	AgentCapabilities                       = "AgentCapabilities"
	AgentExtension                          = "AgentExtension"
	AgentSkill                              = "AgentSkill"
	AgentCardSignature                      = "AgentCardSignature"
	SecurityScheme                          = "SecurityScheme"
	APIKeySecurityScheme                    = "APIKeySecurityScheme"
	HTTPAuthSecurityScheme                  = "HTTPAuthSecurityScheme"
	OAuth2SecurityScheme                    = "OAuth2SecurityScheme"
	OpenIDConnectSecurityScheme             = "OpenIdConnectSecurityScheme"
	MutualTLSSecurityScheme                 = "MutualTlsSecurityScheme"
	OAuthFlows                              = "OAuthFlows"
	AuthorizationCodeOAuthFlow              = "AuthorizationCodeOAuthFlow"
	ClientCredentialsOAuthFlow              = "ClientCredentialsOAuthFlow"
	ImplicitOAuthFlow                       = "ImplicitOAuthFlow"
	PasswordOAuthFlow                       = "PasswordOAuthFlow"
	DeviceCodeOAuthFlow                     = "DeviceCodeOAuthFlow"
	SecurityRequirement                     = "SecurityRequirement"
	StringList                              = "StringList"
	TaskState                               = "TaskState"
	Role                                    = "Role"
	Part                                    = "Part"
	Message                                 = "Message"
	Task                                    = "Task"
	TaskStatus                              = "TaskStatus"
	Artifact                                = "Artifact"
	TaskStatusUpdateEvent                   = "TaskStatusUpdateEvent"
	TaskArtifactUpdateEvent                 = "TaskArtifactUpdateEvent"
	StreamResponse                          = "StreamResponse"
	SendMessageResponse                     = "SendMessageResponse"
	AuthenticationInfo                      = "AuthenticationInfo"
	TaskPushNotificationConfig              = "TaskPushNotificationConfig"
	SendMessageConfiguration                = "SendMessageConfiguration"
	SendMessageRequest                      = "SendMessageRequest"
	GetTaskRequest                          = "GetTaskRequest"
	ListTasksRequest                        = "ListTasksRequest"
	ListTasksResponse                       = "ListTasksResponse"
	CancelTaskRequest                       = "CancelTaskRequest"
	SubscribeToTaskRequest                  = "SubscribeToTaskRequest"
	GetTaskPushNotificationConfigRequest    = "GetTaskPushNotificationConfigRequest"
	DeleteTaskPushNotificationConfigRequest = "DeleteTaskPushNotificationConfigRequest"
	ListTaskPushNotificationConfigsRequest  = "ListTaskPushNotificationConfigsRequest"
	ListTaskPushNotificationConfigsResponse = "ListTaskPushNotificationConfigsResponse"
	GetExtendedAgentCardRequest             = "GetExtendedAgentCardRequest"
)

// Entry points: envelopes and error bodies of the bindings.
const (
	// JSONRPCRequest and JSONRPCResponse are the JSON-RPC 2.0 envelopes; their
	// params and result are checked with the method's schemas (ForMethod).
	JSONRPCRequest  = "JSONRPCRequest"
	JSONRPCResponse = "JSONRPCResponse"
	// JSONRPCError is the error member: code, message, data as an array of
	// ProtoJSON Any objects (spec §9.5).
	JSONRPCError = "JSONRPCError"
	// HTTPErrorBody is the HTTP+JSON error body {"error":{code,status,message,
	// details[]}} (spec §11.6); HTTPErrorStatus is its "error" member.
	HTTPErrorBody   = "HTTPErrorBody"
	HTTPErrorStatus = "HTTPErrorStatus"
	// Any is one error detail; ErrorInfo is google.rpc.ErrorInfo as an Any.
	Any       = "Any"
	ErrorInfo = "ErrorInfo"
)

type compiled struct {
	byName map[string]*jsonschema.Schema
	names  []string
	// expected maps a schema location (as the validator reports it) to the
	// x-a2a-expected annotation found there: keyword -> text.
	expected map[string]map[string]string
}

var (
	loadOnce sync.Once
	loaded   *compiled
	loadErr  error
)

// load compiles every entry point once. A failure is a bug in the embedded
// schema, reported to every caller as an error.
func load() (*compiled, error) {
	loadOnce.Do(func() { loaded, loadErr = compile() })
	return loaded, loadErr
}

func compile() (*compiled, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaDoc))
	if err != nil {
		return nil, fmt.Errorf("schemas: embedded schema is not JSON: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("schemas: embedded schema is not an object")
	}
	defs, _ := root["$defs"].(map[string]any)

	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.AssertContent()
	c.RegisterContentEncoding(&jsonschema.Decoder{Name: "base64", Decode: checkBase64})
	// No loader: the document refers only to itself, and nothing may be fetched.
	c.UseLoader(noLoader{})
	if err := c.AddResource(SchemaID, doc); err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}

	out := &compiled{byName: map[string]*jsonschema.Schema{}, expected: map[string]map[string]string{}}
	for name := range defs {
		if r := []rune(name); len(r) == 0 || !unicode.IsUpper(r[0]) {
			continue
		}
		sch, err := c.Compile(SchemaID + "#/$defs/" + name)
		if err != nil {
			return nil, fmt.Errorf("schemas: compile %s: %w", name, err)
		}
		out.byName[name] = sch
		out.names = append(out.names, name)
	}
	sort.Strings(out.names)
	collectExpected(root, "", out.expected)
	return out, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schemas: refusing to load %s: only the embedded document is used", url)
}

// collectExpected walks the schema document and records every x-a2a-expected
// annotation under the location string the validator uses for that subschema.
func collectExpected(v any, ptr string, into map[string]map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		if ann, ok := v["x-a2a-expected"].(map[string]any); ok {
			m := map[string]string{}
			for kw, text := range ann {
				if s, ok := text.(string); ok {
					m[kw] = s
				}
			}
			into[schemaLocation(ptr)] = m
		}
		for k, child := range v {
			collectExpected(child, ptr+"/"+escapeToken(k), into)
		}
	case []any:
		for i, child := range v {
			collectExpected(child, fmt.Sprintf("%s/%d", ptr, i), into)
		}
	}
}

// Names lists every entry point, sorted.
func Names() []string {
	c, err := load()
	if err != nil {
		return nil
	}
	return append([]string(nil), c.names...)
}

// Validate checks one JSON document against the named entry point and returns
// every violation, sorted by location. Whatever is wrong with the document
// itself — malformed JSON, trailing data, more than MaxDocumentSize bytes — is a
// violation at the root, because documents come from the agent under test. The
// error is reserved for harness bugs: an unknown schema name or a broken
// embedded schema.
func Validate(name string, doc []byte) ([]invariants.Violation, error) {
	c, sch, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if len(doc) > MaxDocumentSize {
		return []invariants.Violation{{
			Invariant: Invariant, Where: "",
			Expected: fmt.Sprintf("a %s document of at most %d bytes", name, MaxDocumentSize),
			Actual:   fmt.Sprintf("%d bytes", len(doc)),
		}}, nil
	}
	v, err := decode(doc)
	if err != nil {
		return []invariants.Violation{{
			Invariant: Invariant, Where: "",
			Expected: fmt.Sprintf("a well-formed JSON %s document", name),
			Actual:   clip("malformed JSON: "+err.Error(), maxActual),
		}}, nil
	}
	return c.check(sch, v)
}

// ValidateValue is Validate for a value the harness holds: a []byte or
// json.RawMessage is validated as is; anything else is marshalled to JSON
// first, and a value that cannot be marshalled is a harness bug (the error).
func ValidateValue(name string, v any) ([]invariants.Violation, error) {
	switch b := v.(type) {
	case []byte:
		return Validate(name, b)
	case json.RawMessage:
		return Validate(name, b)
	}
	doc, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("schemas: cannot marshal %T for %s: %w", v, name, err)
	}
	return Validate(name, doc)
}

func lookup(name string) (*compiled, *jsonschema.Schema, error) {
	c, err := load()
	if err != nil {
		return nil, nil, err
	}
	sch, ok := c.byName[name]
	if !ok {
		return nil, nil, fmt.Errorf("schemas: no schema named %q", name)
	}
	return c, sch, nil
}

// decode parses one JSON value the way the validator needs it (numbers as
// json.Number, so no precision is lost) and rejects trailing data.
func decode(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if err == io.EOF {
			return nil, errors.New("empty document")
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

func (c *compiled) check(sch *jsonschema.Schema, v any) ([]invariants.Violation, error) {
	err := sch.Validate(v)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("schemas: validator failed: %w", err)
	}
	var out []invariants.Violation
	c.flatten(verr, v, &out)
	return sortViolations(out), nil
}

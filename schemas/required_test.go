package schemas

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"
)

// protoRequired is the golden list of REQUIRED fields, by message, in
// specification/a2a.proto at v1.0.1 (every field with
// field_behavior = REQUIRED, JSON names), plus the members our envelope
// and error schemas require from JSON-RPC 2.0 and spec §9.5/§11.6. The
// schema's own "required" arrays must say exactly this, so dropping or
// adding a REQUIRED field anywhere fails TestRequiredMatchesProto.
var protoRequired = map[string][]string{
	"Task":                                    {"id", "status"},
	"TaskStatus":                              {"state"},
	"Message":                                 {"messageId", "role", "parts"},
	"Artifact":                                {"artifactId", "parts"},
	"TaskStatusUpdateEvent":                   {"taskId", "contextId", "status"},
	"TaskArtifactUpdateEvent":                 {"taskId", "contextId", "artifact"},
	"AuthenticationInfo":                      {"scheme"},
	"AgentInterface":                          {"url", "protocolBinding", "protocolVersion"},
	"AgentCard":                               {"name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"},
	"AgentProvider":                           {"url", "organization"},
	"AgentSkill":                              {"id", "name", "description", "tags"},
	"AgentCardSignature":                      {"protected", "signature"},
	"TaskPushNotificationConfig":              {"url"},
	"APIKeySecurityScheme":                    {"location", "name"},
	"HTTPAuthSecurityScheme":                  {"scheme"},
	"OAuth2SecurityScheme":                    {"flows"},
	"OpenIdConnectSecurityScheme":             {"openIdConnectUrl"},
	"AuthorizationCodeOAuthFlow":              {"authorizationUrl", "tokenUrl", "scopes"},
	"ClientCredentialsOAuthFlow":              {"tokenUrl", "scopes"},
	"DeviceCodeOAuthFlow":                     {"deviceAuthorizationUrl", "tokenUrl", "scopes"},
	"SendMessageRequest":                      {"message"},
	"GetTaskRequest":                          {"id"},
	"ListTasksResponse":                       {"tasks", "nextPageToken", "pageSize", "totalSize"},
	"CancelTaskRequest":                       {"id"},
	"GetTaskPushNotificationConfigRequest":    {"taskId", "id"},
	"DeleteTaskPushNotificationConfigRequest": {"taskId", "id"},
	"SubscribeToTaskRequest":                  {"id"},
	"ListTaskPushNotificationConfigsRequest":  {"taskId"},

	// Not from a2a.proto.
	"JSONRPCRequest":  {"jsonrpc", "method"},
	"JSONRPCResponse": {"jsonrpc", "id"},
	"JSONRPCError":    {"code", "message"},
	"Any":             {"@type"},
	"ErrorInfo":       {"@type", "reason", "domain"},
	"HTTPErrorBody":   {"error"},
	"HTTPErrorStatus": {"code", "message"},
}

// removals says, for every (message, field) above, where in which valid
// example that field sits; removing it must give a "required property"
// violation at exactly that pointer.
var removals = []struct {
	object, pointer, def string
}{
	{Task, "/id", "Task"},
	{Task, "/status", "Task"},
	{Task, "/status/state", "TaskStatus"},
	{Task, "/history/0/messageId", "Message"},
	{Task, "/history/1/role", "Message"},
	{Task, "/history/0/parts", "Message"},
	{Task, "/artifacts/0/artifactId", "Artifact"},
	{Task, "/artifacts/0/parts", "Artifact"},
	{TaskStatus, "/message/messageId", "Message"},
	{TaskStatusUpdateEvent, "/taskId", "TaskStatusUpdateEvent"},
	{TaskStatusUpdateEvent, "/contextId", "TaskStatusUpdateEvent"},
	{TaskStatusUpdateEvent, "/status", "TaskStatusUpdateEvent"},
	{TaskArtifactUpdateEvent, "/taskId", "TaskArtifactUpdateEvent"},
	{TaskArtifactUpdateEvent, "/contextId", "TaskArtifactUpdateEvent"},
	{TaskArtifactUpdateEvent, "/artifact", "TaskArtifactUpdateEvent"},
	{StreamResponse, "/statusUpdate/status/state", "TaskStatus"},
	{SendMessageResponse, "/task/status", "Task"},
	{TaskPushNotificationConfig, "/url", "TaskPushNotificationConfig"},
	{TaskPushNotificationConfig, "/authentication/scheme", "AuthenticationInfo"},
	{AgentCard, "/name", "AgentCard"},
	{AgentCard, "/description", "AgentCard"},
	{AgentCard, "/supportedInterfaces", "AgentCard"},
	{AgentCard, "/version", "AgentCard"},
	{AgentCard, "/capabilities", "AgentCard"},
	{AgentCard, "/defaultInputModes", "AgentCard"},
	{AgentCard, "/defaultOutputModes", "AgentCard"},
	{AgentCard, "/skills", "AgentCard"},
	{AgentCard, "/supportedInterfaces/0/url", "AgentInterface"},
	{AgentCard, "/supportedInterfaces/1/protocolBinding", "AgentInterface"},
	{AgentCard, "/supportedInterfaces/2/protocolVersion", "AgentInterface"},
	{AgentCard, "/provider/url", "AgentProvider"},
	{AgentCard, "/provider/organization", "AgentProvider"},
	{AgentCard, "/skills/0/id", "AgentSkill"},
	{AgentCard, "/skills/0/name", "AgentSkill"},
	{AgentCard, "/skills/0/description", "AgentSkill"},
	{AgentCard, "/skills/0/tags", "AgentSkill"},
	{AgentCard, "/signatures/0/protected", "AgentCardSignature"},
	{AgentCard, "/signatures/0/signature", "AgentCardSignature"},
	{AgentCard, "/securitySchemes/apiKey/apiKeySecurityScheme/location", "APIKeySecurityScheme"},
	{AgentCard, "/securitySchemes/apiKey/apiKeySecurityScheme/name", "APIKeySecurityScheme"},
	{AgentCard, "/securitySchemes/bearer/httpAuthSecurityScheme/scheme", "HTTPAuthSecurityScheme"},
	{AgentCard, "/securitySchemes/oauthCode/oauth2SecurityScheme/flows", "OAuth2SecurityScheme"},
	{AgentCard, "/securitySchemes/oidc/openIdConnectSecurityScheme/openIdConnectUrl", "OpenIdConnectSecurityScheme"},
	{AgentCard, "/securitySchemes/oauthCode/oauth2SecurityScheme/flows/authorizationCode/authorizationUrl", "AuthorizationCodeOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthCode/oauth2SecurityScheme/flows/authorizationCode/tokenUrl", "AuthorizationCodeOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthCode/oauth2SecurityScheme/flows/authorizationCode/scopes", "AuthorizationCodeOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthClient/oauth2SecurityScheme/flows/clientCredentials/tokenUrl", "ClientCredentialsOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthClient/oauth2SecurityScheme/flows/clientCredentials/scopes", "ClientCredentialsOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthDevice/oauth2SecurityScheme/flows/deviceCode/deviceAuthorizationUrl", "DeviceCodeOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthDevice/oauth2SecurityScheme/flows/deviceCode/tokenUrl", "DeviceCodeOAuthFlow"},
	{AgentCard, "/securitySchemes/oauthDevice/oauth2SecurityScheme/flows/deviceCode/scopes", "DeviceCodeOAuthFlow"},
	{SendMessageRequest, "/message", "SendMessageRequest"},
	{SendMessageRequest, "/configuration/taskPushNotificationConfig/url", "TaskPushNotificationConfig"},
	{GetTaskRequest, "/id", "GetTaskRequest"},
	{ListTasksResponse, "/tasks", "ListTasksResponse"},
	{ListTasksResponse, "/nextPageToken", "ListTasksResponse"},
	{ListTasksResponse, "/pageSize", "ListTasksResponse"},
	{ListTasksResponse, "/totalSize", "ListTasksResponse"},
	{CancelTaskRequest, "/id", "CancelTaskRequest"},
	{GetTaskPushNotificationConfigRequest, "/taskId", "GetTaskPushNotificationConfigRequest"},
	{GetTaskPushNotificationConfigRequest, "/id", "GetTaskPushNotificationConfigRequest"},
	{DeleteTaskPushNotificationConfigRequest, "/taskId", "DeleteTaskPushNotificationConfigRequest"},
	{DeleteTaskPushNotificationConfigRequest, "/id", "DeleteTaskPushNotificationConfigRequest"},
	{SubscribeToTaskRequest, "/id", "SubscribeToTaskRequest"},
	{ListTaskPushNotificationConfigsRequest, "/taskId", "ListTaskPushNotificationConfigsRequest"},
	{JSONRPCRequest, "/jsonrpc", "JSONRPCRequest"},
	{JSONRPCRequest, "/method", "JSONRPCRequest"},
	{JSONRPCResponse, "/jsonrpc", "JSONRPCResponse"},
	{JSONRPCResponse, "/id", "JSONRPCResponse"},
	{JSONRPCResponse, "/error/code", "JSONRPCError"},
	{JSONRPCError, "/message", "JSONRPCError"},
	{JSONRPCError, "/data/0/@type", "Any"},
	{ErrorInfo, "/@type", "ErrorInfo"},
	{HTTPErrorBody, "/error/details/0/reason", "ErrorInfo"},
	{HTTPErrorStatus, "/details/0/domain", "ErrorInfo"},
	{HTTPErrorBody, "/error", "HTTPErrorBody"},
	{HTTPErrorBody, "/error/code", "HTTPErrorStatus"},
	{HTTPErrorStatus, "/message", "HTTPErrorStatus"},
}

// requiredArrays are the REQUIRED repeated fields; spec §5.7 says each MUST
// have at least one element. ListTasksResponse.tasks is deliberately not here:
// an empty page is the correct answer when no task matches (see README.md).
var requiredArrays = []struct {
	object, pointer string
}{
	{Message, "/parts"},
	{Artifact, "/parts"},
	{Task, "/history/0/parts"},
	{AgentCard, "/supportedInterfaces"},
	{AgentCard, "/defaultInputModes"},
	{AgentCard, "/defaultOutputModes"},
	{AgentCard, "/skills"},
	{AgentCard, "/skills/0/tags"},
	{AgentSkill, "/tags"},
}

// schemaRequired reads the top-level "required" array of every $defs entry in
// the embedded schema document.
func schemaRequired(t *testing.T) map[string][]string {
	t.Helper()
	var doc struct {
		Defs map[string]struct {
			Required []string `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schemaDoc, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for name, def := range doc.Defs {
		if len(def.Required) > 0 {
			out[name] = def.Required
		}
	}
	return out
}

func pairs(m map[string][]string) []string {
	var out []string
	for def, fields := range m {
		for _, f := range fields {
			out = append(out, def+"."+f)
		}
	}
	sort.Strings(out)
	return out
}

func TestRequiredMatchesProto(t *testing.T) {
	got, want := pairs(schemaRequired(t)), pairs(protoRequired)
	for _, p := range want {
		if !slices.Contains(got, p) {
			t.Errorf("REQUIRED %s is not required by the schema", p)
		}
	}
	for _, p := range got {
		if !slices.Contains(want, p) {
			t.Errorf("the schema requires %s, which is not REQUIRED in the golden list", p)
		}
	}
}

func TestEveryRequiredFieldHasARemovalCase(t *testing.T) {
	covered := map[string]bool{}
	for _, r := range removals {
		toks := tokens(r.pointer)
		covered[r.def+"."+toks[len(toks)-1]] = true
	}
	for _, p := range pairs(protoRequired) {
		if !covered[p] {
			t.Errorf("no removal case exercises REQUIRED %s", p)
		}
	}
	for p := range covered {
		if !slices.Contains(pairs(protoRequired), p) {
			t.Errorf("removal case for %s, which is not REQUIRED", p)
		}
	}
}

func TestRemovingARequiredFieldFailsAtItsPointer(t *testing.T) {
	for _, r := range removals {
		t.Run(r.object+r.pointer, func(t *testing.T) {
			doc := example(t, r.object)
			remove(t, doc, r.pointer)
			vs := validate(t, r.object, mustJSON(t, doc))
			toks := tokens(r.pointer)
			want := fmt.Sprintf("required property '%s'", toks[len(toks)-1])
			if !find(vs, r.pointer, want) {
				t.Fatalf("want %q at %s, got:\n%s", want, r.pointer, dump(vs))
			}
			for _, v := range vs {
				if v.Actual != "absent" {
					t.Errorf("Actual for a removed member: %q", v.Actual)
				}
			}
		})
	}
}

func TestEmptyRequiredArrayFails(t *testing.T) {
	for _, r := range requiredArrays {
		t.Run(r.object+r.pointer, func(t *testing.T) {
			doc := example(t, r.object)
			set(t, doc, r.pointer, []any{})
			vs := validate(t, r.object, mustJSON(t, doc))
			if !find(vs, r.pointer, "at least 1 item") {
				t.Fatalf("want 'at least 1 item' at %s, got:\n%s", r.pointer, dump(vs))
			}
			if len(vs) != 1 || vs[0].Actual != "0 items" {
				t.Fatalf("want exactly one violation with Actual '0 items', got:\n%s", dump(vs))
			}
		})
	}
}

func TestEmptyListTasksPageIsValid(t *testing.T) {
	doc := `{"tasks":[],"nextPageToken":"","pageSize":50,"totalSize":0}`
	if vs := validate(t, ListTasksResponse, []byte(doc)); len(vs) != 0 {
		t.Fatalf("empty page rejected:\n%s", dump(vs))
	}
}

func TestEmptyRequiredIdentifierFails(t *testing.T) {
	cases := []struct{ object, pointer, want string }{
		{Task, "/id", "non-empty"},
		{Message, "/messageId", "non-empty"},
		{Artifact, "/artifactId", "non-empty"},
		{TaskStatusUpdateEvent, "/contextId", "non-empty"},
		{TaskPushNotificationConfig, "/url", "an absolute URL"},
		{AgentCard, "/provider/url", "an absolute URL"},
		{GetTaskRequest, "/id", "non-empty"},
		{AgentCard, "/supportedInterfaces/0/url", "non-empty"},
		{AgentCard, "/skills/0/id", "non-empty"},
	}
	for _, c := range cases {
		t.Run(c.object+c.pointer, func(t *testing.T) {
			doc := example(t, c.object)
			set(t, doc, c.pointer, "")
			vs := validate(t, c.object, mustJSON(t, doc))
			if len(vs) != 1 || !find(vs, c.pointer, c.want) {
				t.Fatalf("want one %q violation at %s, got:\n%s", c.want, c.pointer, dump(vs))
			}
		})
	}
	// The spec's own §8.4.1 example card has "description": "" and
	// ListTasksResponse.nextPageToken is "" on the last page: presence is
	// what REQUIRED asks of those.
	card := example(t, AgentCard)
	set(t, card, "/description", "")
	if vs := validate(t, AgentCard, mustJSON(t, card)); len(vs) != 0 {
		t.Fatalf("empty card description rejected:\n%s", dump(vs))
	}
}

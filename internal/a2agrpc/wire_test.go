package a2agrpc

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// officialFields are the field numbers of every message field in the
// official specification/a2a.proto at tag v1.0.0 of a2aproject/A2A
// (message.field → number), and officialEnums the number of every enum
// value (enum.VALUE → number). Facts for the wire: a field or value whose
// number drifts from these makes the harness misread every real gRPC agent,
// though every name, and so every transcript, would still look right.
var officialFields = map[string]int32{
	"APIKeySecurityScheme.description":                        1,
	"APIKeySecurityScheme.location":                           2,
	"APIKeySecurityScheme.name":                               3,
	"AgentCapabilities.extended_agent_card":                   4,
	"AgentCapabilities.extensions":                            3,
	"AgentCapabilities.push_notifications":                    2,
	"AgentCapabilities.streaming":                             1,
	"AgentCard.capabilities":                                  7,
	"AgentCard.default_input_modes":                           10,
	"AgentCard.default_output_modes":                          11,
	"AgentCard.description":                                   2,
	"AgentCard.documentation_url":                             6,
	"AgentCard.icon_url":                                      14,
	"AgentCard.name":                                          1,
	"AgentCard.provider":                                      4,
	"AgentCard.security_requirements":                         9,
	"AgentCard.security_schemes":                              8,
	"AgentCard.signatures":                                    13,
	"AgentCard.skills":                                        12,
	"AgentCard.supported_interfaces":                          3,
	"AgentCard.version":                                       5,
	"AgentCardSignature.header":                               3,
	"AgentCardSignature.protected":                            1,
	"AgentCardSignature.signature":                            2,
	"AgentExtension.description":                              2,
	"AgentExtension.params":                                   4,
	"AgentExtension.required":                                 3,
	"AgentExtension.uri":                                      1,
	"AgentInterface.protocol_binding":                         2,
	"AgentInterface.protocol_version":                         4,
	"AgentInterface.tenant":                                   3,
	"AgentInterface.url":                                      1,
	"AgentProvider.organization":                              2,
	"AgentProvider.url":                                       1,
	"AgentSkill.description":                                  3,
	"AgentSkill.examples":                                     5,
	"AgentSkill.id":                                           1,
	"AgentSkill.input_modes":                                  6,
	"AgentSkill.name":                                         2,
	"AgentSkill.output_modes":                                 7,
	"AgentSkill.security_requirements":                        8,
	"AgentSkill.tags":                                         4,
	"Artifact.artifact_id":                                    1,
	"Artifact.description":                                    3,
	"Artifact.extensions":                                     6,
	"Artifact.metadata":                                       5,
	"Artifact.name":                                           2,
	"Artifact.parts":                                          4,
	"AuthenticationInfo.credentials":                          2,
	"AuthenticationInfo.scheme":                               1,
	"AuthorizationCodeOAuthFlow.authorization_url":            1,
	"AuthorizationCodeOAuthFlow.pkce_required":                5,
	"AuthorizationCodeOAuthFlow.refresh_url":                  3,
	"AuthorizationCodeOAuthFlow.scopes":                       4,
	"AuthorizationCodeOAuthFlow.token_url":                    2,
	"CancelTaskRequest.id":                                    2,
	"CancelTaskRequest.metadata":                              3,
	"CancelTaskRequest.tenant":                                1,
	"ClientCredentialsOAuthFlow.refresh_url":                  2,
	"ClientCredentialsOAuthFlow.scopes":                       3,
	"ClientCredentialsOAuthFlow.token_url":                    1,
	"DeleteTaskPushNotificationConfigRequest.id":              3,
	"DeleteTaskPushNotificationConfigRequest.task_id":         2,
	"DeleteTaskPushNotificationConfigRequest.tenant":          1,
	"DeviceCodeOAuthFlow.device_authorization_url":            1,
	"DeviceCodeOAuthFlow.refresh_url":                         3,
	"DeviceCodeOAuthFlow.scopes":                              4,
	"DeviceCodeOAuthFlow.token_url":                           2,
	"GetExtendedAgentCardRequest.tenant":                      1,
	"GetTaskPushNotificationConfigRequest.id":                 3,
	"GetTaskPushNotificationConfigRequest.task_id":            2,
	"GetTaskPushNotificationConfigRequest.tenant":             1,
	"GetTaskRequest.history_length":                           3,
	"GetTaskRequest.id":                                       2,
	"GetTaskRequest.tenant":                                   1,
	"HTTPAuthSecurityScheme.bearer_format":                    3,
	"HTTPAuthSecurityScheme.description":                      1,
	"HTTPAuthSecurityScheme.scheme":                           2,
	"ImplicitOAuthFlow.authorization_url":                     1,
	"ImplicitOAuthFlow.refresh_url":                           2,
	"ImplicitOAuthFlow.scopes":                                3,
	"ListTaskPushNotificationConfigsRequest.page_size":        2,
	"ListTaskPushNotificationConfigsRequest.page_token":       3,
	"ListTaskPushNotificationConfigsRequest.task_id":          1,
	"ListTaskPushNotificationConfigsRequest.tenant":           4,
	"ListTaskPushNotificationConfigsResponse.configs":         1,
	"ListTaskPushNotificationConfigsResponse.next_page_token": 2,
	"ListTasksRequest.context_id":                             2,
	"ListTasksRequest.history_length":                         6,
	"ListTasksRequest.include_artifacts":                      8,
	"ListTasksRequest.page_size":                              4,
	"ListTasksRequest.page_token":                             5,
	"ListTasksRequest.status":                                 3,
	"ListTasksRequest.status_timestamp_after":                 7,
	"ListTasksRequest.tenant":                                 1,
	"ListTasksResponse.next_page_token":                       2,
	"ListTasksResponse.page_size":                             3,
	"ListTasksResponse.tasks":                                 1,
	"ListTasksResponse.total_size":                            4,
	"Message.context_id":                                      2,
	"Message.extensions":                                      7,
	"Message.message_id":                                      1,
	"Message.metadata":                                        6,
	"Message.parts":                                           5,
	"Message.reference_task_ids":                              8,
	"Message.role":                                            4,
	"Message.task_id":                                         3,
	"MutualTlsSecurityScheme.description":                     1,
	"OAuth2SecurityScheme.description":                        1,
	"OAuth2SecurityScheme.flows":                              2,
	"OAuth2SecurityScheme.oauth2_metadata_url":                3,
	"OAuthFlows.authorization_code":                           1,
	"OAuthFlows.client_credentials":                           2,
	"OAuthFlows.device_code":                                  5,
	"OAuthFlows.implicit":                                     3,
	"OAuthFlows.password":                                     4,
	"OpenIdConnectSecurityScheme.description":                 1,
	"OpenIdConnectSecurityScheme.open_id_connect_url":         2,
	"Part.data":                                              4,
	"Part.filename":                                          6,
	"Part.media_type":                                        7,
	"Part.metadata":                                          5,
	"Part.raw":                                               2,
	"Part.text":                                              1,
	"Part.url":                                               3,
	"PasswordOAuthFlow.refresh_url":                          2,
	"PasswordOAuthFlow.scopes":                               3,
	"PasswordOAuthFlow.token_url":                            1,
	"SecurityRequirement.schemes":                            1,
	"SecurityScheme.api_key_security_scheme":                 1,
	"SecurityScheme.http_auth_security_scheme":               2,
	"SecurityScheme.mtls_security_scheme":                    5,
	"SecurityScheme.oauth2_security_scheme":                  3,
	"SecurityScheme.open_id_connect_security_scheme":         4,
	"SendMessageConfiguration.accepted_output_modes":         1,
	"SendMessageConfiguration.history_length":                3,
	"SendMessageConfiguration.return_immediately":            4,
	"SendMessageConfiguration.task_push_notification_config": 2,
	"SendMessageRequest.configuration":                       3,
	"SendMessageRequest.message":                             2,
	"SendMessageRequest.metadata":                            4,
	"SendMessageRequest.tenant":                              1,
	"SendMessageResponse.message":                            2,
	"SendMessageResponse.task":                               1,
	"StreamResponse.artifact_update":                         4,
	"StreamResponse.message":                                 2,
	"StreamResponse.status_update":                           3,
	"StreamResponse.task":                                    1,
	"StringList.list":                                        1,
	"SubscribeToTaskRequest.id":                              2,
	"SubscribeToTaskRequest.tenant":                          1,
	"Task.artifacts":                                         4,
	"Task.context_id":                                        2,
	"Task.history":                                           5,
	"Task.id":                                                1,
	"Task.metadata":                                          6,
	"Task.status":                                            3,
	"TaskArtifactUpdateEvent.append":                         4,
	"TaskArtifactUpdateEvent.artifact":                       3,
	"TaskArtifactUpdateEvent.context_id":                     2,
	"TaskArtifactUpdateEvent.last_chunk":                     5,
	"TaskArtifactUpdateEvent.metadata":                       6,
	"TaskArtifactUpdateEvent.task_id":                        1,
	"TaskPushNotificationConfig.authentication":              6,
	"TaskPushNotificationConfig.id":                          2,
	"TaskPushNotificationConfig.task_id":                     3,
	"TaskPushNotificationConfig.tenant":                      1,
	"TaskPushNotificationConfig.token":                       5,
	"TaskPushNotificationConfig.url":                         4,
	"TaskStatus.message":                                     2,
	"TaskStatus.state":                                       1,
	"TaskStatus.timestamp":                                   3,
	"TaskStatusUpdateEvent.context_id":                       2,
	"TaskStatusUpdateEvent.metadata":                         4,
	"TaskStatusUpdateEvent.status":                           3,
	"TaskStatusUpdateEvent.task_id":                          1,
}

var officialEnums = map[string]int32{
	"Role.ROLE_AGENT":                     2,
	"Role.ROLE_UNSPECIFIED":               0,
	"Role.ROLE_USER":                      1,
	"TaskState.TASK_STATE_AUTH_REQUIRED":  8,
	"TaskState.TASK_STATE_CANCELED":       5,
	"TaskState.TASK_STATE_COMPLETED":      3,
	"TaskState.TASK_STATE_FAILED":         4,
	"TaskState.TASK_STATE_INPUT_REQUIRED": 6,
	"TaskState.TASK_STATE_REJECTED":       7,
	"TaskState.TASK_STATE_SUBMITTED":      1,
	"TaskState.TASK_STATE_UNSPECIFIED":    0,
	"TaskState.TASK_STATE_WORKING":        2,
}

// officialMethods are the service's methods, with their streaming flag.
var officialMethods = map[string]bool{
	"SendMessage":                      false,
	"SendStreamingMessage":             true,
	"GetTask":                          false,
	"ListTasks":                        false,
	"CancelTask":                       false,
	"SubscribeToTask":                  true,
	"CreateTaskPushNotificationConfig": false,
	"GetTaskPushNotificationConfig":    false,
	"ListTaskPushNotificationConfigs":  false,
	"GetExtendedAgentCard":             false,
	"DeleteTaskPushNotificationConfig": false,
}

// TestWireNumbersAreTheSpecsOwn: the built-in a2a.proto has exactly the
// official messages' fields and enums' values, with the official numbers,
// and the official methods.
func TestWireNumbersAreTheSpecsOwn(t *testing.T) {
	s := MustBuiltin()
	file := s.svc.ParentFile()
	seenF, seenE := map[string]bool{}, map[string]bool{}
	var walk func(prefix string, msgs protoreflect.MessageDescriptors, enums protoreflect.EnumDescriptors)
	walk = func(prefix string, msgs protoreflect.MessageDescriptors, enums protoreflect.EnumDescriptors) {
		for i := 0; i < enums.Len(); i++ {
			e := enums.Get(i)
			for j := 0; j < e.Values().Len(); j++ {
				v := e.Values().Get(j)
				key := prefix + string(e.Name()) + "." + string(v.Name())
				seenE[key] = true
				if want, ok := officialEnums[key]; !ok {
					t.Errorf("enum value %s = %d is not in the official a2a.proto", key, v.Number())
				} else if int32(v.Number()) != want {
					t.Errorf("enum value %s = %d, the official a2a.proto says %d", key, v.Number(), want)
				}
			}
		}
		for i := 0; i < msgs.Len(); i++ {
			m := msgs.Get(i)
			name := prefix + string(m.Name())
			if m.IsMapEntry() {
				continue
			}
			for j := 0; j < m.Fields().Len(); j++ {
				f := m.Fields().Get(j)
				key := name + "." + string(f.Name())
				seenF[key] = true
				if want, ok := officialFields[key]; !ok {
					t.Errorf("field %s = %d is not in the official a2a.proto", key, f.Number())
				} else if int32(f.Number()) != want {
					t.Errorf("field %s = %d, the official a2a.proto says %d", key, f.Number(), want)
				}
			}
			walk(name+".", m.Messages(), m.Enums())
		}
	}
	walk("", file.Messages(), file.Enums())
	for key := range officialFields {
		if !seenF[key] {
			t.Errorf("official field %s is missing", key)
		}
	}
	for key := range officialEnums {
		if !seenE[key] {
			t.Errorf("official enum value %s is missing", key)
		}
	}
	methods := s.svc.Methods()
	if methods.Len() != len(officialMethods) {
		t.Errorf("%d methods, the official service has %d", methods.Len(), len(officialMethods))
	}
	for i := 0; i < methods.Len(); i++ {
		m := methods.Get(i)
		stream, ok := officialMethods[string(m.Name())]
		if !ok || stream != m.IsStreamingServer() || m.IsStreamingClient() {
			t.Errorf("method %s (server streaming %v): not the official service's", m.Name(), m.IsStreamingServer())
		}
	}
	if !strings.HasSuffix(string(s.svc.FullName()), "lf.a2a.v1.A2AService") {
		t.Errorf("service %s", s.svc.FullName())
	}
}

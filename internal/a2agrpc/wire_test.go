package a2agrpc

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The wire facts of the official specification/a2a.proto at tag v1.0.0 of
// a2aproject/A2A (commit 173695755607e884aa9acf8ce4feed90e32727a1; v1.0.1 and
// main as of 2026-08 differ from it only in comments). A field, value or
// method that drifts from these makes the harness misread every real gRPC
// agent while every name, and so every transcript, still looks right.
//
// officialFields: "Message.field NUMBER [repeated|optional] TYPE [oneof=NAME]
// [deprecated]". TYPE is a scalar kind, a message or enum name (bare inside
// lf.a2a.v1, qualified outside it) or map<K,V>; "optional" is proto3's
// explicit-presence keyword.
var officialFields = []string{
	"APIKeySecurityScheme.description 1 string",
	"APIKeySecurityScheme.location 2 string",
	"APIKeySecurityScheme.name 3 string",
	"AgentCapabilities.streaming 1 optional bool",
	"AgentCapabilities.push_notifications 2 optional bool",
	"AgentCapabilities.extensions 3 repeated AgentExtension",
	"AgentCapabilities.extended_agent_card 4 optional bool",
	"AgentCard.name 1 string",
	"AgentCard.description 2 string",
	"AgentCard.supported_interfaces 3 repeated AgentInterface",
	"AgentCard.provider 4 AgentProvider",
	"AgentCard.version 5 string",
	"AgentCard.documentation_url 6 optional string",
	"AgentCard.capabilities 7 AgentCapabilities",
	"AgentCard.security_schemes 8 map<string,SecurityScheme>",
	"AgentCard.security_requirements 9 repeated SecurityRequirement",
	"AgentCard.default_input_modes 10 repeated string",
	"AgentCard.default_output_modes 11 repeated string",
	"AgentCard.skills 12 repeated AgentSkill",
	"AgentCard.signatures 13 repeated AgentCardSignature",
	"AgentCard.icon_url 14 optional string",
	"AgentCardSignature.protected 1 string",
	"AgentCardSignature.signature 2 string",
	"AgentCardSignature.header 3 google.protobuf.Struct",
	"AgentExtension.uri 1 string",
	"AgentExtension.description 2 string",
	"AgentExtension.required 3 bool",
	"AgentExtension.params 4 google.protobuf.Struct",
	"AgentInterface.url 1 string",
	"AgentInterface.protocol_binding 2 string",
	"AgentInterface.tenant 3 string",
	"AgentInterface.protocol_version 4 string",
	"AgentProvider.url 1 string",
	"AgentProvider.organization 2 string",
	"AgentSkill.id 1 string",
	"AgentSkill.name 2 string",
	"AgentSkill.description 3 string",
	"AgentSkill.tags 4 repeated string",
	"AgentSkill.examples 5 repeated string",
	"AgentSkill.input_modes 6 repeated string",
	"AgentSkill.output_modes 7 repeated string",
	"AgentSkill.security_requirements 8 repeated SecurityRequirement",
	"Artifact.artifact_id 1 string",
	"Artifact.name 2 string",
	"Artifact.description 3 string",
	"Artifact.parts 4 repeated Part",
	"Artifact.metadata 5 google.protobuf.Struct",
	"Artifact.extensions 6 repeated string",
	"AuthenticationInfo.scheme 1 string",
	"AuthenticationInfo.credentials 2 string",
	"AuthorizationCodeOAuthFlow.authorization_url 1 string",
	"AuthorizationCodeOAuthFlow.token_url 2 string",
	"AuthorizationCodeOAuthFlow.refresh_url 3 string",
	"AuthorizationCodeOAuthFlow.scopes 4 map<string,string>",
	"AuthorizationCodeOAuthFlow.pkce_required 5 bool",
	"CancelTaskRequest.tenant 1 string",
	"CancelTaskRequest.id 2 string",
	"CancelTaskRequest.metadata 3 google.protobuf.Struct",
	"ClientCredentialsOAuthFlow.token_url 1 string",
	"ClientCredentialsOAuthFlow.refresh_url 2 string",
	"ClientCredentialsOAuthFlow.scopes 3 map<string,string>",
	"DeleteTaskPushNotificationConfigRequest.tenant 1 string",
	"DeleteTaskPushNotificationConfigRequest.task_id 2 string",
	"DeleteTaskPushNotificationConfigRequest.id 3 string",
	"DeviceCodeOAuthFlow.device_authorization_url 1 string",
	"DeviceCodeOAuthFlow.token_url 2 string",
	"DeviceCodeOAuthFlow.refresh_url 3 string",
	"DeviceCodeOAuthFlow.scopes 4 map<string,string>",
	"GetExtendedAgentCardRequest.tenant 1 string",
	"GetTaskPushNotificationConfigRequest.tenant 1 string",
	"GetTaskPushNotificationConfigRequest.task_id 2 string",
	"GetTaskPushNotificationConfigRequest.id 3 string",
	"GetTaskRequest.tenant 1 string",
	"GetTaskRequest.id 2 string",
	"GetTaskRequest.history_length 3 optional int32",
	"HTTPAuthSecurityScheme.description 1 string",
	"HTTPAuthSecurityScheme.scheme 2 string",
	"HTTPAuthSecurityScheme.bearer_format 3 string",
	"ImplicitOAuthFlow.authorization_url 1 string",
	"ImplicitOAuthFlow.refresh_url 2 string",
	"ImplicitOAuthFlow.scopes 3 map<string,string>",
	"ListTaskPushNotificationConfigsRequest.tenant 4 string",
	"ListTaskPushNotificationConfigsRequest.task_id 1 string",
	"ListTaskPushNotificationConfigsRequest.page_size 2 int32",
	"ListTaskPushNotificationConfigsRequest.page_token 3 string",
	"ListTaskPushNotificationConfigsResponse.configs 1 repeated TaskPushNotificationConfig",
	"ListTaskPushNotificationConfigsResponse.next_page_token 2 string",
	"ListTasksRequest.tenant 1 string",
	"ListTasksRequest.context_id 2 string",
	"ListTasksRequest.status 3 TaskState",
	"ListTasksRequest.page_size 4 optional int32",
	"ListTasksRequest.page_token 5 string",
	"ListTasksRequest.history_length 6 optional int32",
	"ListTasksRequest.status_timestamp_after 7 google.protobuf.Timestamp",
	"ListTasksRequest.include_artifacts 8 optional bool",
	"ListTasksResponse.tasks 1 repeated Task",
	"ListTasksResponse.next_page_token 2 string",
	"ListTasksResponse.page_size 3 int32",
	"ListTasksResponse.total_size 4 int32",
	"Message.message_id 1 string",
	"Message.context_id 2 string",
	"Message.task_id 3 string",
	"Message.role 4 Role",
	"Message.parts 5 repeated Part",
	"Message.metadata 6 google.protobuf.Struct",
	"Message.extensions 7 repeated string",
	"Message.reference_task_ids 8 repeated string",
	"MutualTlsSecurityScheme.description 1 string",
	"OAuth2SecurityScheme.description 1 string",
	"OAuth2SecurityScheme.flows 2 OAuthFlows",
	"OAuth2SecurityScheme.oauth2_metadata_url 3 string",
	"OAuthFlows.authorization_code 1 AuthorizationCodeOAuthFlow oneof=flow",
	"OAuthFlows.client_credentials 2 ClientCredentialsOAuthFlow oneof=flow",
	"OAuthFlows.implicit 3 ImplicitOAuthFlow oneof=flow deprecated",
	"OAuthFlows.password 4 PasswordOAuthFlow oneof=flow deprecated",
	"OAuthFlows.device_code 5 DeviceCodeOAuthFlow oneof=flow",
	"OpenIdConnectSecurityScheme.description 1 string",
	"OpenIdConnectSecurityScheme.open_id_connect_url 2 string",
	"Part.text 1 string oneof=content",
	"Part.raw 2 bytes oneof=content",
	"Part.url 3 string oneof=content",
	"Part.data 4 google.protobuf.Value oneof=content",
	"Part.metadata 5 google.protobuf.Struct",
	"Part.filename 6 string",
	"Part.media_type 7 string",
	"PasswordOAuthFlow.token_url 1 string",
	"PasswordOAuthFlow.refresh_url 2 string",
	"PasswordOAuthFlow.scopes 3 map<string,string>",
	"SecurityRequirement.schemes 1 map<string,StringList>",
	"SecurityScheme.api_key_security_scheme 1 APIKeySecurityScheme oneof=scheme",
	"SecurityScheme.http_auth_security_scheme 2 HTTPAuthSecurityScheme oneof=scheme",
	"SecurityScheme.oauth2_security_scheme 3 OAuth2SecurityScheme oneof=scheme",
	"SecurityScheme.open_id_connect_security_scheme 4 OpenIdConnectSecurityScheme oneof=scheme",
	"SecurityScheme.mtls_security_scheme 5 MutualTlsSecurityScheme oneof=scheme",
	"SendMessageConfiguration.accepted_output_modes 1 repeated string",
	"SendMessageConfiguration.task_push_notification_config 2 TaskPushNotificationConfig",
	"SendMessageConfiguration.history_length 3 optional int32",
	"SendMessageConfiguration.return_immediately 4 bool",
	"SendMessageRequest.tenant 1 string",
	"SendMessageRequest.message 2 Message",
	"SendMessageRequest.configuration 3 SendMessageConfiguration",
	"SendMessageRequest.metadata 4 google.protobuf.Struct",
	"SendMessageResponse.task 1 Task oneof=payload",
	"SendMessageResponse.message 2 Message oneof=payload",
	"StreamResponse.task 1 Task oneof=payload",
	"StreamResponse.message 2 Message oneof=payload",
	"StreamResponse.status_update 3 TaskStatusUpdateEvent oneof=payload",
	"StreamResponse.artifact_update 4 TaskArtifactUpdateEvent oneof=payload",
	"StringList.list 1 repeated string",
	"SubscribeToTaskRequest.tenant 1 string",
	"SubscribeToTaskRequest.id 2 string",
	"Task.id 1 string",
	"Task.context_id 2 string",
	"Task.status 3 TaskStatus",
	"Task.artifacts 4 repeated Artifact",
	"Task.history 5 repeated Message",
	"Task.metadata 6 google.protobuf.Struct",
	"TaskArtifactUpdateEvent.task_id 1 string",
	"TaskArtifactUpdateEvent.context_id 2 string",
	"TaskArtifactUpdateEvent.artifact 3 Artifact",
	"TaskArtifactUpdateEvent.append 4 bool",
	"TaskArtifactUpdateEvent.last_chunk 5 bool",
	"TaskArtifactUpdateEvent.metadata 6 google.protobuf.Struct",
	"TaskPushNotificationConfig.tenant 1 string",
	"TaskPushNotificationConfig.id 2 string",
	"TaskPushNotificationConfig.task_id 3 string",
	"TaskPushNotificationConfig.url 4 string",
	"TaskPushNotificationConfig.token 5 string",
	"TaskPushNotificationConfig.authentication 6 AuthenticationInfo",
	"TaskStatus.state 1 TaskState",
	"TaskStatus.message 2 Message",
	"TaskStatus.timestamp 3 google.protobuf.Timestamp",
	"TaskStatusUpdateEvent.task_id 1 string",
	"TaskStatusUpdateEvent.context_id 2 string",
	"TaskStatusUpdateEvent.status 3 TaskStatus",
	"TaskStatusUpdateEvent.metadata 4 google.protobuf.Struct",
}

// officialEnums: "Enum.VALUE NUMBER".
var officialEnums = []string{
	"Role.ROLE_UNSPECIFIED 0",
	"Role.ROLE_USER 1",
	"Role.ROLE_AGENT 2",
	"TaskState.TASK_STATE_UNSPECIFIED 0",
	"TaskState.TASK_STATE_SUBMITTED 1",
	"TaskState.TASK_STATE_WORKING 2",
	"TaskState.TASK_STATE_COMPLETED 3",
	"TaskState.TASK_STATE_FAILED 4",
	"TaskState.TASK_STATE_CANCELED 5",
	"TaskState.TASK_STATE_INPUT_REQUIRED 6",
	"TaskState.TASK_STATE_REJECTED 7",
	"TaskState.TASK_STATE_AUTH_REQUIRED 8",
}

// officialMethods: "Method Request [stream] Response" (no method streams its
// request).
var officialMethods = []string{
	"CancelTask CancelTaskRequest Task",
	"CreateTaskPushNotificationConfig TaskPushNotificationConfig TaskPushNotificationConfig",
	"DeleteTaskPushNotificationConfig DeleteTaskPushNotificationConfigRequest google.protobuf.Empty",
	"GetExtendedAgentCard GetExtendedAgentCardRequest AgentCard",
	"GetTask GetTaskRequest Task",
	"GetTaskPushNotificationConfig GetTaskPushNotificationConfigRequest TaskPushNotificationConfig",
	"ListTaskPushNotificationConfigs ListTaskPushNotificationConfigsRequest ListTaskPushNotificationConfigsResponse",
	"ListTasks ListTasksRequest ListTasksResponse",
	"SendMessage SendMessageRequest SendMessageResponse",
	"SendStreamingMessage SendMessageRequest stream StreamResponse",
	"SubscribeToTask SubscribeToTaskRequest stream StreamResponse",
}

const pkg = "lf.a2a.v1"

func short(d protoreflect.Descriptor) string {
	return strings.TrimPrefix(string(d.FullName()), pkg+".")
}

func fieldType(f protoreflect.FieldDescriptor) string {
	if f.IsMap() {
		return "map<" + fieldType(f.MapKey()) + "," + fieldType(f.MapValue()) + ">"
	}
	switch f.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return short(f.Message())
	case protoreflect.EnumKind:
		return short(f.Enum())
	}
	return f.Kind().String()
}

// describeField renders a field in officialFields' form, less its name.
func describeField(f protoreflect.FieldDescriptor) string {
	s := []string{strconv.Itoa(int(f.Number()))}
	if f.Cardinality() == protoreflect.Repeated && !f.IsMap() {
		s = append(s, "repeated")
	}
	if f.HasOptionalKeyword() {
		s = append(s, "optional")
	}
	s = append(s, fieldType(f))
	if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
		s = append(s, "oneof="+string(o.Name()))
	}
	if opts, ok := f.Options().(*descriptorpb.FieldOptions); ok && opts.GetDeprecated() {
		s = append(s, "deprecated")
	}
	return strings.Join(s, " ")
}

func describeMethod(m protoreflect.MethodDescriptor) string {
	s := []string{short(m.Input())}
	if m.IsStreamingClient() {
		s[0] = "stream " + s[0]
	}
	if m.IsStreamingServer() {
		s = append(s, "stream")
	}
	return strings.Join(append(s, short(m.Output())), " ")
}

// table splits "Key rest of the line" entries into a map.
func table(t *testing.T, entries []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, e := range entries {
		k, v, _ := strings.Cut(e, " ")
		if _, dup := m[k]; dup {
			t.Fatalf("%s twice in the table", k)
		}
		m[k] = v
	}
	return m
}

// compareWithTable checks every field, enum value and method of file
// against the official tables, both ways.
func compareWithTable(t *testing.T, file protoreflect.FileDescriptor) {
	t.Helper()
	fields, enums, methods := table(t, officialFields), table(t, officialEnums), table(t, officialMethods)
	seen := map[string]bool{}
	check := func(what string, want map[string]string, key, got string) {
		seen[key] = true
		if w, ok := want[key]; !ok {
			t.Errorf("%s %s (%s) is not in the official a2a.proto", what, key, got)
		} else if got != w {
			t.Errorf("%s %s is %q; the official a2a.proto has %q", what, key, got, w)
		}
	}
	for i := 0; i < file.Enums().Len(); i++ {
		e := file.Enums().Get(i)
		for j := 0; j < e.Values().Len(); j++ {
			v := e.Values().Get(j)
			check("enum value", enums, string(e.Name())+"."+string(v.Name()), strconv.Itoa(int(v.Number())))
		}
	}
	for i := 0; i < file.Messages().Len(); i++ {
		m := file.Messages().Get(i)
		for j := 0; j < m.Fields().Len(); j++ {
			f := m.Fields().Get(j)
			check("field", fields, string(m.Name())+"."+string(f.Name()), describeField(f))
		}
		for j := 0; j < m.Messages().Len(); j++ {
			if !m.Messages().Get(j).IsMapEntry() {
				t.Errorf("nested message %s: the official a2a.proto nests none", m.Messages().Get(j).FullName())
			}
		}
		if m.Enums().Len() > 0 {
			t.Errorf("nested enum in %s: the official a2a.proto nests none", m.Name())
		}
	}
	if file.Services().Len() != 1 {
		t.Fatalf("%d services", file.Services().Len())
	}
	svc := file.Services().Get(0)
	if svc.FullName() != Service {
		t.Errorf("service %s, want %s", svc.FullName(), Service)
	}
	for i := 0; i < svc.Methods().Len(); i++ {
		m := svc.Methods().Get(i)
		check("method", methods, string(m.Name()), describeMethod(m))
	}
	for _, want := range []map[string]string{fields, enums, methods} {
		for k := range want {
			if !seen[k] {
				t.Errorf("official %s is missing", k)
			}
		}
	}
}

// TestWireNumbersAreTheSpecsOwn: the built-in a2a.proto has exactly the
// official fields (number, type, label, oneof), enum values and methods.
func TestWireNumbersAreTheSpecsOwn(t *testing.T) {
	compareWithTable(t, MustBuiltin().svc.ParentFile())
}

// officialFile builds, from the tables alone, the descriptor a protoc run
// over the official a2a.proto would give for the wire (names, numbers,
// types, labels; no comments or annotations).
func officialFile(t *testing.T) *descriptorpb.FileDescriptorProto {
	t.Helper()
	enumNames := map[string]bool{}
	fd := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("official-a2a-facts.proto"),
		Package: proto.String(pkg),
		Syntax:  proto.String("proto3"),
		Dependency: []string{"google/protobuf/empty.proto", "google/protobuf/struct.proto",
			"google/protobuf/timestamp.proto"},
	}
	enums := map[string]*descriptorpb.EnumDescriptorProto{}
	for _, e := range officialEnums {
		key, num, _ := strings.Cut(e, " ")
		en, vn, _ := strings.Cut(key, ".")
		n, _ := strconv.Atoi(num)
		if enums[en] == nil {
			enums[en] = &descriptorpb.EnumDescriptorProto{Name: proto.String(en)}
			fd.EnumType = append(fd.EnumType, enums[en])
			enumNames[en] = true
		}
		enums[en].Value = append(enums[en].Value, &descriptorpb.EnumValueDescriptorProto{
			Name: proto.String(vn), Number: proto.Int32(int32(n))})
	}
	ref := func(name string) (descriptorpb.FieldDescriptorProto_Type, *string) {
		// Scalar kinds are spelled in lower case; "Message" is a message.
		if k, ok := descriptorpb.FieldDescriptorProto_Type_value["TYPE_"+strings.ToUpper(name)]; ok && name == strings.ToLower(name) {
			return descriptorpb.FieldDescriptorProto_Type(k), nil
		}
		full := "." + name
		if !strings.Contains(name, ".") {
			full = "." + pkg + "." + name
		}
		if enumNames[name] {
			return descriptorpb.FieldDescriptorProto_TYPE_ENUM, &full
		}
		return descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, &full
	}
	msgs := map[string]*descriptorpb.DescriptorProto{}
	oneofs := map[string]map[string]int32{}
	optionals := map[*descriptorpb.DescriptorProto][]*descriptorpb.FieldDescriptorProto{}
	for _, e := range officialFields {
		w := strings.Fields(e)
		mn, fn, _ := strings.Cut(w[0], ".")
		num, _ := strconv.Atoi(w[1])
		m := msgs[mn]
		if m == nil {
			m = &descriptorpb.DescriptorProto{Name: proto.String(mn)}
			msgs[mn] = m
			oneofs[mn] = map[string]int32{}
			fd.MessageType = append(fd.MessageType, m)
		}
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(fn), Number: proto.Int32(int32(num)),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}
		for _, word := range w[2:] {
			switch {
			case word == "repeated":
				f.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
			case word == "optional":
				f.Proto3Optional = proto.Bool(true)
				optionals[m] = append(optionals[m], f)
			case word == "deprecated":
				f.Options = &descriptorpb.FieldOptions{Deprecated: proto.Bool(true)}
			case strings.HasPrefix(word, "oneof="):
				on := strings.TrimPrefix(word, "oneof=")
				idx, ok := oneofs[mn][on]
				if !ok {
					idx = int32(len(m.OneofDecl))
					oneofs[mn][on] = idx
					m.OneofDecl = append(m.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String(on)})
				}
				f.OneofIndex = proto.Int32(idx)
			case strings.HasPrefix(word, "map<"):
				k, v, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(word, "map<"), ">"), ",")
				entry := &descriptorpb.DescriptorProto{Name: proto.String(mapEntryName(fn)),
					Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)}}
				for i, side := range []struct{ name, typ string }{{"key", k}, {"value", v}} {
					typ, tn := ref(side.typ)
					entry.Field = append(entry.Field, &descriptorpb.FieldDescriptorProto{
						Name: proto.String(side.name), Number: proto.Int32(int32(i + 1)), Type: typ.Enum(),
						TypeName: tn, Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()})
				}
				m.NestedType = append(m.NestedType, entry)
				f.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
				f.Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
				f.TypeName = proto.String("." + pkg + "." + mn + "." + entry.GetName())
			default:
				typ, tn := ref(word)
				f.Type, f.TypeName = typ.Enum(), tn
			}
		}
		m.Field = append(m.Field, f)
	}
	// proto3 optional fields each sit in a synthetic oneof, after the real ones.
	for m, fs := range optionals {
		for _, f := range fs {
			f.OneofIndex = proto.Int32(int32(len(m.OneofDecl)))
			m.OneofDecl = append(m.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String("_" + f.GetName())})
		}
	}
	svc := &descriptorpb.ServiceDescriptorProto{Name: proto.String("A2AService")}
	for _, e := range officialMethods {
		w := strings.Fields(e)
		in, out := w[1], w[len(w)-1]
		full := func(n string) *string {
			if strings.Contains(n, ".") {
				return proto.String("." + n)
			}
			return proto.String("." + pkg + "." + n)
		}
		svc.Method = append(svc.Method, &descriptorpb.MethodDescriptorProto{Name: proto.String(w[0]),
			InputType: full(in), OutputType: full(out), ServerStreaming: proto.Bool(len(w) == 4)})
	}
	fd.Service = []*descriptorpb.ServiceDescriptorProto{svc}
	return fd
}

// mapEntryName is protoc's name for a map field's entry message.
func mapEntryName(field string) string {
	var b strings.Builder
	for _, part := range strings.Split(field, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String() + "Entry"
}

// officialSchema loads the tables' descriptor the way a user would load the
// official one: as a FileDescriptorSet through FromDescriptorSet.
func officialSchema(t *testing.T) *Schema {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{
		protodesc.ToFileDescriptorProto(emptypb.File_google_protobuf_empty_proto),
		protodesc.ToFileDescriptorProto(structpb.File_google_protobuf_struct_proto),
		protodesc.ToFileDescriptorProto(timestamppb.File_google_protobuf_timestamp_proto),
		officialFile(t),
	}}
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromDescriptorSet(b, "official facts")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOfficialFactsDescriptorIsTheTables: the descriptor the interop test
// decodes with says what the tables say (so the interop test tests ours
// against the official facts, not against a mistake in officialFile), and
// ours agrees with it on the ProtoJSON names too.
func TestOfficialFactsDescriptorIsTheTables(t *testing.T) {
	official := officialSchema(t)
	compareWithTable(t, official.svc.ParentFile())
	ours := MustBuiltin().svc.ParentFile()
	of := official.svc.ParentFile()
	for i := 0; i < ours.Messages().Len(); i++ {
		m := ours.Messages().Get(i)
		om := of.Messages().ByName(m.Name())
		if om == nil {
			continue // compareWithTable has said so
		}
		for j := 0; j < m.Fields().Len(); j++ {
			f := m.Fields().Get(j)
			if of := om.Fields().ByName(f.Name()); of != nil && of.JSONName() != f.JSONName() {
				t.Errorf("%s.%s: ProtoJSON name %q, the official %q", m.Name(), f.Name(), f.JSONName(), of.JSONName())
			}
		}
	}
}

// fill sets every field of m (for a oneof, the member variant selects; for
// an enum, a non-zero value variant selects) so that an encoding carries
// every field number the message has. Well-known types get small valid
// values, so that ProtoJSON can render them.
func fill(m protoreflect.Message, variant, depth int) {
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.Value":
		m.Set(md.Fields().ByName("string_value"), protoreflect.ValueOfString(fmt.Sprintf("value-%d", variant)))
		return
	case "google.protobuf.Timestamp":
		m.Set(md.Fields().ByName("seconds"), protoreflect.ValueOfInt64(1767225600+int64(variant)))
		m.Set(md.Fields().ByName("nanos"), protoreflect.ValueOfInt32(int32(variant)*1000))
		return
	}
	if depth > 8 {
		return
	}
	for i := 0; i < md.Fields().Len(); i++ {
		f := md.Fields().Get(i)
		if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() && o.Fields().Get(variant%o.Fields().Len()) != f {
			continue
		}
		switch {
		case f.IsMap():
			mp := m.Mutable(f).Map()
			for _, k := range []string{"a", "b"} {
				mp.Set(protoreflect.ValueOfString(k).MapKey(), element(mp.NewValue, f.MapValue(), variant, depth, k))
			}
		case f.IsList():
			l := m.Mutable(f).List()
			for _, k := range []string{"a", "b"} {
				l.Append(element(l.NewElement, f, variant, depth, k))
			}
		default:
			m.Set(f, element(m.NewField(f).Message, f, variant, depth, ""))
		}
	}
}

// element is one value for f: newMsg makes a message of f's type.
func element[T any](newMsg func() T, f protoreflect.FieldDescriptor, variant, depth int, tag string) protoreflect.Value {
	switch f.Kind() {
	case protoreflect.MessageKind:
		v := any(newMsg())
		var msg protoreflect.Message
		switch v := v.(type) {
		case protoreflect.Value:
			msg = v.Message()
		case protoreflect.Message:
			msg = v
		}
		fill(msg, variant, depth+1)
		return protoreflect.ValueOfMessage(msg)
	case protoreflect.EnumKind:
		vs := f.Enum().Values()
		return protoreflect.ValueOfEnum(vs.Get(1 + variant%(vs.Len()-1)).Number())
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(fmt.Sprintf("%s-%d%s", f.Name(), variant, tag))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte(fmt.Sprintf("%s-%d%s", f.Name(), variant, tag)))
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true)
	case protoreflect.Int32Kind:
		return protoreflect.ValueOfInt32(int32(f.Number())*100 + int32(variant) + 1)
	}
	panic(fmt.Sprintf("fill: no value for %s (%s)", f.FullName(), f.Kind()))
}

// hasUnknown reports whether m, or any message in it, kept bytes its
// descriptor has no field for.
func hasUnknown(m protoreflect.Message) bool {
	if len(m.GetUnknown()) > 0 {
		return true
	}
	found := false
	m.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case f.IsMap():
			if f.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
					found = found || hasUnknown(e.Message())
					return !found
				})
			}
		case f.IsList():
			if f.Kind() == protoreflect.MessageKind {
				for i := 0; i < v.List().Len() && !found; i++ {
					found = hasUnknown(v.List().Get(i).Message())
				}
			}
		case f.Kind() == protoreflect.MessageKind:
			found = hasUnknown(v.Message())
		}
		return !found
	})
	return found
}

func jsonValue(t *testing.T, m proto.Message) any {
	t.Helper()
	b, err := ToJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestWireInteropWithTheOfficialNumbers: every message, with every field
// set (each oneof member, each enum value in turn), encoded by one side and
// decoded by the other — ours and a descriptor built only from the official
// facts — reads the same, both ways, and leaves no field unknown.
func TestWireInteropWithTheOfficialNumbers(t *testing.T) {
	ours := MustBuiltin()
	official := officialSchema(t)
	msgs := ours.svc.ParentFile().Messages()
	for i := 0; i < msgs.Len(); i++ {
		name := string(msgs.Get(i).Name())
		for variant := 0; variant < 8; variant++ {
			for _, dir := range []struct {
				label    string
				from, to *Schema
			}{{"ours→official", ours, official}, {"official→ours", official, ours}} {
				fromMD, ok1 := dir.from.Message(name)
				toMD, ok2 := dir.to.Message(name)
				if !ok1 || !ok2 {
					t.Errorf("%s: message missing on one side", name)
					continue
				}
				src := dynamicpb.NewMessage(fromMD)
				fill(src, variant, 0)
				b, err := proto.Marshal(src)
				if err != nil {
					t.Fatalf("%s %s: %v", name, dir.label, err)
				}
				dst := dynamicpb.NewMessage(toMD)
				if err := proto.Unmarshal(b, dst); err != nil {
					t.Errorf("%s variant %d %s: does not decode: %v", name, variant, dir.label, err)
					continue
				}
				if hasUnknown(dst) {
					t.Errorf("%s variant %d %s: decoded with unknown fields", name, variant, dir.label)
				}
				if got, want := jsonValue(t, dst), jsonValue(t, src); !reflect.DeepEqual(got, want) {
					t.Errorf("%s variant %d %s:\n got %v\nwant %v", name, variant, dir.label, got, want)
				}
			}
		}
	}
}

// TestAgentStreamBytesReadAsSent: bytes laid out by hand from the official
// numbers, as a real agent's server would send them, read as what they say:
// a status update whose state is COMPLETED (TaskState 3), and a Part whose
// metadata (5), filename (6) and media type (7) land in those fields.
func TestAgentStreamBytesReadAsSent(t *testing.T) {
	s := MustBuiltin()
	var status, event, stream []byte
	status = protowire.AppendTag(status, 1, protowire.VarintType) // TaskStatus.state
	status = protowire.AppendVarint(status, 3)
	event = protowire.AppendTag(event, 1, protowire.BytesType) // TaskStatusUpdateEvent.task_id
	event = protowire.AppendString(event, "t1")
	event = protowire.AppendTag(event, 3, protowire.BytesType) // .status
	event = protowire.AppendBytes(event, status)
	stream = protowire.AppendTag(stream, 3, protowire.BytesType) // StreamResponse.status_update
	stream = protowire.AppendBytes(stream, event)

	var meta, part []byte
	meta = protowire.AppendTag(meta, 1, protowire.BytesType) // Struct.fields entry
	var entry, value []byte
	value = protowire.AppendTag(value, 3, protowire.BytesType) // Value.string_value
	value = protowire.AppendString(value, "v")
	entry = protowire.AppendTag(entry, 1, protowire.BytesType)
	entry = protowire.AppendString(entry, "k")
	entry = protowire.AppendTag(entry, 2, protowire.BytesType)
	entry = protowire.AppendBytes(entry, value)
	meta = protowire.AppendBytes(meta, entry)
	part = protowire.AppendTag(part, 1, protowire.BytesType) // Part.text
	part = protowire.AppendString(part, "hi")
	part = protowire.AppendTag(part, 5, protowire.BytesType) // Part.metadata
	part = protowire.AppendBytes(part, meta)
	part = protowire.AppendTag(part, 6, protowire.BytesType) // Part.filename
	part = protowire.AppendString(part, "a.txt")
	part = protowire.AppendTag(part, 7, protowire.BytesType) // Part.media_type
	part = protowire.AppendString(part, "text/plain")

	for _, c := range []struct {
		msg  string
		b    []byte
		want string
	}{
		{"StreamResponse", stream, `{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_COMPLETED"}}}`},
		{"Part", part, `{"text":"hi","metadata":{"k":"v"},"filename":"a.txt","mediaType":"text/plain"}`},
	} {
		md, _ := s.Message(c.msg)
		m := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(c.b, m); err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		var want any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if got := jsonValue(t, m); !reflect.DeepEqual(got, want) || hasUnknown(m) {
			t.Errorf("%s read as %v (unknown fields: %v), want %v", c.msg, got, hasUnknown(m), want)
		}
	}
}

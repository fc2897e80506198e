package a2a

// Each wire type decodes leniently (see decodeLenient): snake_case members are
// accepted and unknown members land in Extra instead of failing the decode.

func (v *Part) UnmarshalJSON(b []byte) error {
	type plain Part
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = Part(p)
	v.Extra = extra
	return err
}

func (v *Message) UnmarshalJSON(b []byte) error {
	type plain Message
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = Message(p)
	v.Extra = extra
	return err
}

func (v *TaskStatus) UnmarshalJSON(b []byte) error {
	type plain TaskStatus
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = TaskStatus(p)
	v.Extra = extra
	return err
}

func (v *Artifact) UnmarshalJSON(b []byte) error {
	type plain Artifact
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = Artifact(p)
	v.Extra = extra
	return err
}

func (v *Task) UnmarshalJSON(b []byte) error {
	type plain Task
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = Task(p)
	v.Extra = extra
	return err
}

func (v *TaskStatusUpdateEvent) UnmarshalJSON(b []byte) error {
	type plain TaskStatusUpdateEvent
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = TaskStatusUpdateEvent(p)
	v.Extra = extra
	return err
}

func (v *TaskArtifactUpdateEvent) UnmarshalJSON(b []byte) error {
	type plain TaskArtifactUpdateEvent
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = TaskArtifactUpdateEvent(p)
	v.Extra = extra
	return err
}

func (v *StreamResponse) UnmarshalJSON(b []byte) error {
	type plain StreamResponse
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = StreamResponse(p)
	v.Extra = extra
	return err
}

func (v *SendMessageResponse) UnmarshalJSON(b []byte) error {
	type plain SendMessageResponse
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SendMessageResponse(p)
	v.Extra = extra
	return err
}

func (v *AuthenticationInfo) UnmarshalJSON(b []byte) error {
	type plain AuthenticationInfo
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AuthenticationInfo(p)
	v.Extra = extra
	return err
}

func (v *TaskPushNotificationConfig) UnmarshalJSON(b []byte) error {
	type plain TaskPushNotificationConfig
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = TaskPushNotificationConfig(p)
	v.Extra = extra
	return err
}

func (v *SendMessageConfiguration) UnmarshalJSON(b []byte) error {
	type plain SendMessageConfiguration
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SendMessageConfiguration(p)
	v.Extra = extra
	return err
}

func (v *SendMessageRequest) UnmarshalJSON(b []byte) error {
	type plain SendMessageRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SendMessageRequest(p)
	v.Extra = extra
	return err
}

func (v *GetTaskRequest) UnmarshalJSON(b []byte) error {
	type plain GetTaskRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = GetTaskRequest(p)
	v.Extra = extra
	return err
}

func (v *ListTasksRequest) UnmarshalJSON(b []byte) error {
	type plain ListTasksRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = ListTasksRequest(p)
	v.Extra = extra
	return err
}

func (v *ListTasksResponse) UnmarshalJSON(b []byte) error {
	type plain ListTasksResponse
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = ListTasksResponse(p)
	v.Extra = extra
	return err
}

func (v *CancelTaskRequest) UnmarshalJSON(b []byte) error {
	type plain CancelTaskRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = CancelTaskRequest(p)
	v.Extra = extra
	return err
}

func (v *SubscribeToTaskRequest) UnmarshalJSON(b []byte) error {
	type plain SubscribeToTaskRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SubscribeToTaskRequest(p)
	v.Extra = extra
	return err
}

func (v *TaskPushNotificationConfigRef) UnmarshalJSON(b []byte) error {
	type plain TaskPushNotificationConfigRef
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = TaskPushNotificationConfigRef(p)
	v.Extra = extra
	return err
}

func (v *ListTaskPushNotificationConfigsRequest) UnmarshalJSON(b []byte) error {
	type plain ListTaskPushNotificationConfigsRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = ListTaskPushNotificationConfigsRequest(p)
	v.Extra = extra
	return err
}

func (v *ListTaskPushNotificationConfigsResponse) UnmarshalJSON(b []byte) error {
	type plain ListTaskPushNotificationConfigsResponse
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = ListTaskPushNotificationConfigsResponse(p)
	v.Extra = extra
	return err
}

func (v *GetExtendedAgentCardRequest) UnmarshalJSON(b []byte) error {
	type plain GetExtendedAgentCardRequest
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = GetExtendedAgentCardRequest(p)
	v.Extra = extra
	return err
}

func (v *AgentCard) UnmarshalJSON(b []byte) error {
	type plain AgentCard
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentCard(p)
	v.Extra = extra
	return err
}

func (v *AgentInterface) UnmarshalJSON(b []byte) error {
	type plain AgentInterface
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentInterface(p)
	v.Extra = extra
	return err
}

func (v *AgentProvider) UnmarshalJSON(b []byte) error {
	type plain AgentProvider
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentProvider(p)
	v.Extra = extra
	return err
}

func (v *AgentCapabilities) UnmarshalJSON(b []byte) error {
	type plain AgentCapabilities
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentCapabilities(p)
	v.Extra = extra
	return err
}

func (v *AgentExtension) UnmarshalJSON(b []byte) error {
	type plain AgentExtension
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentExtension(p)
	v.Extra = extra
	return err
}

func (v *AgentSkill) UnmarshalJSON(b []byte) error {
	type plain AgentSkill
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentSkill(p)
	v.Extra = extra
	return err
}

func (v *AgentCardSignature) UnmarshalJSON(b []byte) error {
	type plain AgentCardSignature
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = AgentCardSignature(p)
	v.Extra = extra
	return err
}

func (v *SecurityRequirement) UnmarshalJSON(b []byte) error {
	type plain SecurityRequirement
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SecurityRequirement(p)
	v.Extra = extra
	return err
}

func (v *SecurityScheme) UnmarshalJSON(b []byte) error {
	type plain SecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = SecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *APIKeySecurityScheme) UnmarshalJSON(b []byte) error {
	type plain APIKeySecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = APIKeySecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *HTTPAuthSecurityScheme) UnmarshalJSON(b []byte) error {
	type plain HTTPAuthSecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = HTTPAuthSecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *OAuth2SecurityScheme) UnmarshalJSON(b []byte) error {
	type plain OAuth2SecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = OAuth2SecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *OpenIDConnectSecurityScheme) UnmarshalJSON(b []byte) error {
	type plain OpenIDConnectSecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = OpenIDConnectSecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *MutualTLSSecurityScheme) UnmarshalJSON(b []byte) error {
	type plain MutualTLSSecurityScheme
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = MutualTLSSecurityScheme(p)
	v.Extra = extra
	return err
}

func (v *OAuthFlows) UnmarshalJSON(b []byte) error {
	type plain OAuthFlows
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = OAuthFlows(p)
	v.Extra = extra
	return err
}

func (v *OAuthFlow) UnmarshalJSON(b []byte) error {
	type plain OAuthFlow
	var p plain
	extra, err := decodeLenient(b, &p)
	*v = OAuthFlow(p)
	v.Extra = extra
	return err
}

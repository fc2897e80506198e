package a2a

import (
	"errors"

	"github.com/a2a-conform/a2a-conform/internal/jcs"
)

// CanonicalCard returns the bytes an Agent Card signature covers (spec
// §8.4.1): the card as received without its signatures member, with every
// member the proto would not serialise at its default value removed, in RFC
// 8785 form. REQUIRED fields, proto3 optional fields and singular message
// fields track presence and are kept even at their default; plain scalars at
// "", 0 or false, and empty repeated or map fields, are dropped; a null is an
// unset field. Members the proto does not define are judged by value alone.
//
// stripDefaults false gives the JCS of the card minus signatures without that
// step, for telling a signer that skipped it apart from a wrong signature.
func CanonicalCard(raw []byte, stripDefaults bool) ([]byte, error) {
	v, err := jcs.Parse(raw)
	if err != nil {
		return nil, err
	}
	card, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the card is not a JSON object")
	}
	delete(card, "signatures")
	if stripDefaults {
		stripMessage(card, "AgentCard")
	}
	return jcs.Marshal(card)
}

// presence says how one proto field is serialised.
type presence struct {
	keep bool   // REQUIRED, optional, or a singular message: kept when present
	msg  string // message type of the value (or of each element / map value); "" for scalars and Struct
}

// cardFields describes the proto messages reachable from AgentCard
// (a2a.proto v1.0), by JSON name.
var cardFields = map[string]map[string]presence{
	"AgentCard": {
		"name": {keep: true}, "description": {keep: true}, "version": {keep: true},
		"supportedInterfaces": {keep: true, msg: "AgentInterface"},
		"provider":            {keep: true, msg: "AgentProvider"},
		"documentationUrl":    {keep: true}, "iconUrl": {keep: true},
		"capabilities":         {keep: true, msg: "AgentCapabilities"},
		"securitySchemes":      {msg: "SecurityScheme"},
		"securityRequirements": {msg: "SecurityRequirement"},
		"defaultInputModes":    {keep: true}, "defaultOutputModes": {keep: true},
		"skills": {keep: true, msg: "AgentSkill"},
	},
	"AgentInterface": {"url": {keep: true}, "protocolBinding": {keep: true}, "tenant": {}, "protocolVersion": {keep: true}},
	"AgentProvider":  {"url": {keep: true}, "organization": {keep: true}},
	"AgentCapabilities": {
		"streaming": {keep: true}, "pushNotifications": {keep: true}, "extendedAgentCard": {keep: true},
		"extensions": {msg: "AgentExtension"},
	},
	"AgentExtension": {"uri": {}, "description": {}, "required": {}, "params": {keep: true}},
	"AgentSkill": {
		"id": {keep: true}, "name": {keep: true}, "description": {keep: true}, "tags": {keep: true},
		"examples": {}, "inputModes": {}, "outputModes": {}, "securityRequirements": {msg: "SecurityRequirement"},
	},
	"SecurityRequirement": {"schemes": {msg: "StringList"}},
	"StringList":          {"list": {}},
	"SecurityScheme": {
		"apiKeySecurityScheme":        {keep: true, msg: "APIKeySecurityScheme"},
		"httpAuthSecurityScheme":      {keep: true, msg: "HTTPAuthSecurityScheme"},
		"oauth2SecurityScheme":        {keep: true, msg: "OAuth2SecurityScheme"},
		"openIdConnectSecurityScheme": {keep: true, msg: "OpenIdConnectSecurityScheme"},
		"mtlsSecurityScheme":          {keep: true, msg: "MutualTlsSecurityScheme"},
	},
	"APIKeySecurityScheme":        {"description": {}, "location": {keep: true}, "name": {keep: true}},
	"HTTPAuthSecurityScheme":      {"description": {}, "scheme": {keep: true}, "bearerFormat": {}},
	"OAuth2SecurityScheme":        {"description": {}, "flows": {keep: true, msg: "OAuthFlows"}, "oauth2MetadataUrl": {}},
	"OpenIdConnectSecurityScheme": {"description": {}, "openIdConnectUrl": {keep: true}},
	"MutualTlsSecurityScheme":     {"description": {}},
	"OAuthFlows": {
		"authorizationCode": {keep: true, msg: "AuthorizationCodeOAuthFlow"},
		"clientCredentials": {keep: true, msg: "ClientCredentialsOAuthFlow"},
		"implicit":          {keep: true, msg: "ImplicitOAuthFlow"},
		"password":          {keep: true, msg: "PasswordOAuthFlow"},
		"deviceCode":        {keep: true, msg: "DeviceCodeOAuthFlow"},
	},
	"AuthorizationCodeOAuthFlow": {"authorizationUrl": {keep: true}, "tokenUrl": {keep: true}, "refreshUrl": {}, "scopes": {keep: true}, "pkceRequired": {}},
	"ClientCredentialsOAuthFlow": {"tokenUrl": {keep: true}, "refreshUrl": {}, "scopes": {keep: true}},
	"ImplicitOAuthFlow":          {"authorizationUrl": {}, "refreshUrl": {}, "scopes": {}},
	"PasswordOAuthFlow":          {"tokenUrl": {}, "refreshUrl": {}, "scopes": {}},
	"DeviceCodeOAuthFlow":        {"deviceAuthorizationUrl": {keep: true}, "tokenUrl": {keep: true}, "refreshUrl": {}, "scopes": {keep: true}},
}

// stripMessage removes default-valued members of one message in place and
// recurses into the messages it holds (directly, in lists, or as map values).
func stripMessage(obj map[string]any, msg string) {
	fields := cardFields[msg]
	for name, v := range obj {
		f, known := fields[name]
		if v == nil || (!(known && f.keep) && isDefault(v)) {
			delete(obj, name)
			continue
		}
		if !known || f.msg == "" {
			continue
		}
		switch t := v.(type) {
		case map[string]any:
			if isMapField(msg, name) {
				for _, mv := range t {
					if m, ok := mv.(map[string]any); ok {
						stripMessage(m, f.msg)
					}
				}
			} else {
				stripMessage(t, f.msg)
			}
		case []any:
			for _, e := range t {
				if m, ok := e.(map[string]any); ok {
					stripMessage(m, f.msg)
				}
			}
		}
	}
}

// isMapField names the proto map fields whose values are messages.
func isMapField(msg, name string) bool {
	return (msg == "AgentCard" && name == "securitySchemes") || (msg == "SecurityRequirement" && name == "schemes")
}

func isDefault(v any) bool {
	switch t := v.(type) {
	case string:
		return t == ""
	case float64:
		return t == 0
	case bool:
		return !t
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

package a2a

import (
	"encoding/json"
	"fmt"
)

// Protocol binding names as they appear in AgentInterface.protocolBinding.
const (
	BindingJSONRPC  = "JSONRPC"
	BindingHTTPJSON = "HTTP+JSON"
	BindingGRPC     = "GRPC"
)

// ProtocolVersion is the Major.Minor this harness speaks and sends as A2A-Version.
const ProtocolVersion = "1.0"

// WellKnownCardPath is where a v1.0 agent serves its public card (spec §8.2).
const WellKnownCardPath = "/.well-known/agent-card.json"

// AgentCard is the agent's self-description (a2a.proto AgentCard).
type AgentCard struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	SupportedInterfaces  []AgentInterface          `json:"supportedInterfaces"`
	Provider             *AgentProvider            `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	DocumentationURL     *string                   `json:"documentationUrl,omitempty"`
	Capabilities         AgentCapabilities         `json:"capabilities"`
	SecuritySchemes      map[string]SecurityScheme `json:"securitySchemes,omitempty"`
	SecurityRequirements []SecurityRequirement     `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes"`
	Skills               []AgentSkill              `json:"skills"`
	Signatures           []AgentCardSignature      `json:"signatures,omitempty"`
	IconURL              *string                   `json:"iconUrl,omitempty"`
	Extra                Extras                    `json:"-"`
}

// V03Keys are top-level card members that only a v0.3 (or hybrid) card carries.
var V03Keys = []string{"url", "preferredTransport", "additionalInterfaces", "protocolVersion",
	"supportsAuthenticatedExtendedCard", "security", "kind"}

// V03Leftovers returns the v0.3-only members present on the card, in V03Keys order.
func (c AgentCard) V03Leftovers() []string {
	var out []string
	for _, k := range V03Keys {
		if _, ok := c.Extra[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

// Interface returns the first declared interface with the given binding.
func (c AgentCard) Interface(binding string) (AgentInterface, bool) {
	for _, i := range c.SupportedInterfaces {
		if i.ProtocolBinding == binding {
			return i, true
		}
	}
	return AgentInterface{}, false
}

// Streaming, PushNotifications and ExtendedAgentCard read the capability flags;
// absent and false both mean "not supported" (spec §3.3.4).
func (c AgentCard) Streaming() bool {
	return c.Capabilities.Streaming != nil && *c.Capabilities.Streaming
}
func (c AgentCard) PushNotifications() bool {
	return c.Capabilities.PushNotifications != nil && *c.Capabilities.PushNotifications
}
func (c AgentCard) ExtendedAgentCard() bool {
	return c.Capabilities.ExtendedAgentCard != nil && *c.Capabilities.ExtendedAgentCard
}

// HasExtension reports whether the card advertises the extension URI.
func (c AgentCard) HasExtension(uri string) bool {
	for _, e := range c.Capabilities.Extensions {
		if e.URI == uri {
			return true
		}
	}
	return false
}

// AgentInterface is one binding at one URL.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	Tenant          string `json:"tenant,omitempty"`
	ProtocolVersion string `json:"protocolVersion"`
	Extra           Extras `json:"-"`
}

// AgentProvider names the organisation behind the agent.
type AgentProvider struct {
	URL          string `json:"url"`
	Organization string `json:"organization"`
	Extra        Extras `json:"-"`
}

// AgentCapabilities are the optional features an agent claims.
type AgentCapabilities struct {
	Streaming         *bool            `json:"streaming,omitempty"`
	PushNotifications *bool            `json:"pushNotifications,omitempty"`
	Extensions        []AgentExtension `json:"extensions,omitempty"`
	ExtendedAgentCard *bool            `json:"extendedAgentCard,omitempty"`
	Extra             Extras           `json:"-"`
}

// AgentExtension declares one protocol extension.
type AgentExtension struct {
	URI         string `json:"uri,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Params      Struct `json:"params,omitempty"`
	Extra       Extras `json:"-"`
}

// AgentSkill is one advertised ability.
type AgentSkill struct {
	ID                   string                `json:"id"`
	Name                 string                `json:"name"`
	Description          string                `json:"description"`
	Tags                 []string              `json:"tags"`
	Examples             []string              `json:"examples,omitempty"`
	InputModes           []string              `json:"inputModes,omitempty"`
	OutputModes          []string              `json:"outputModes,omitempty"`
	SecurityRequirements []SecurityRequirement `json:"securityRequirements,omitempty"`
	Extra                Extras                `json:"-"`
}

// AgentCardSignature is one detached JWS over the canonical card (spec §8.4).
type AgentCardSignature struct {
	Protected string `json:"protected"`
	Signature string `json:"signature"`
	Header    Struct `json:"header,omitempty"`
	Extra     Extras `json:"-"`
}

// SecurityRequirement is one alternative: every scheme in it applies (AND).
type SecurityRequirement struct {
	Schemes map[string]StringList `json:"schemes"`
	Extra   Extras                `json:"-"`
}

// StringList is the proto StringList wrapper: {"list":[…]}. a2a-go writes a bare
// array instead; both are read, and Bare records which form was seen so the
// non-ProtoJSON form can be reported as a warning.
type StringList struct {
	List []string
	Bare bool
}

func (s StringList) MarshalJSON() ([]byte, error) {
	list := s.List
	if list == nil {
		list = []string{}
	}
	return json.Marshal(struct {
		List []string `json:"list"`
	}{list})
}

func (s *StringList) UnmarshalJSON(b []byte) error {
	var arr []string
	if err := json.Unmarshal(b, &arr); err == nil {
		*s = StringList{List: arr, Bare: true}
		return nil
	}
	var obj struct {
		List []string `json:"list"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return fmt.Errorf("scope list must be {\"list\":[…]} or an array, got %s", describeJSON(b))
	}
	*s = StringList{List: obj.List}
	return nil
}

// SecurityScheme is the oneof wrapper: exactly one member is set.
type SecurityScheme struct {
	APIKey        *APIKeySecurityScheme        `json:"apiKeySecurityScheme,omitempty"`
	HTTPAuth      *HTTPAuthSecurityScheme      `json:"httpAuthSecurityScheme,omitempty"`
	OAuth2        *OAuth2SecurityScheme        `json:"oauth2SecurityScheme,omitempty"`
	OpenIDConnect *OpenIDConnectSecurityScheme `json:"openIdConnectSecurityScheme,omitempty"`
	MTLS          *MutualTLSSecurityScheme     `json:"mtlsSecurityScheme,omitempty"`
	Extra         Extras                       `json:"-"`
}

// APIKeySecurityScheme: an API key in a header, query parameter or cookie.
type APIKeySecurityScheme struct {
	Description string `json:"description,omitempty"`
	Location    string `json:"location"`
	Name        string `json:"name"`
	Extra       Extras `json:"-"`
}

// HTTPAuthSecurityScheme: an HTTP authentication scheme such as Bearer.
type HTTPAuthSecurityScheme struct {
	Description  string `json:"description,omitempty"`
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat,omitempty"`
	Extra        Extras `json:"-"`
}

// OAuth2SecurityScheme: OAuth 2.0 with one flow.
type OAuth2SecurityScheme struct {
	Description       string     `json:"description,omitempty"`
	Flows             OAuthFlows `json:"flows"`
	OAuth2MetadataURL string     `json:"oauth2MetadataUrl,omitempty"`
	Extra             Extras     `json:"-"`
}

// OpenIDConnectSecurityScheme: OpenID Connect discovery.
type OpenIDConnectSecurityScheme struct {
	Description      string `json:"description,omitempty"`
	OpenIDConnectURL string `json:"openIdConnectUrl"`
	Extra            Extras `json:"-"`
}

// MutualTLSSecurityScheme: client certificates.
type MutualTLSSecurityScheme struct {
	Description string `json:"description,omitempty"`
	Extra       Extras `json:"-"`
}

// OAuthFlows is a oneof of flow kinds; implicit and password are deprecated in v1.0.
type OAuthFlows struct {
	AuthorizationCode *OAuthFlow `json:"authorizationCode,omitempty"`
	ClientCredentials *OAuthFlow `json:"clientCredentials,omitempty"`
	DeviceCode        *OAuthFlow `json:"deviceCode,omitempty"`
	Implicit          *OAuthFlow `json:"implicit,omitempty"`
	Password          *OAuthFlow `json:"password,omitempty"`
	Extra             Extras     `json:"-"`
}

// OAuthFlow holds the members of every flow kind; which ones are REQUIRED depends
// on the kind and is checked by the schemas, not here.
type OAuthFlow struct {
	AuthorizationURL       string            `json:"authorizationUrl,omitempty"`
	DeviceAuthorizationURL string            `json:"deviceAuthorizationUrl,omitempty"`
	TokenURL               string            `json:"tokenUrl,omitempty"`
	RefreshURL             string            `json:"refreshUrl,omitempty"`
	Scopes                 map[string]string `json:"scopes,omitempty"`
	PKCERequired           bool              `json:"pkceRequired,omitempty"`
	Extra                  Extras            `json:"-"`
}

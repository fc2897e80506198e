package fakes

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultV03Card: The well-known card is served in the v0.3 shape (url, preferredTransport, additionalInterfaces,
// top-level protocolVersion "0.3.0", no supportedInterfaces), as a stale build or cache would.
var faultV03Card = register(FaultInfo{
	Name:        "v03-card",
	Scenario:    scenarioStaleCDN,
	Description: "The well-known card is served in the v0.3 shape (url, preferredTransport, additionalInterfaces, top-level protocolVersion \"0.3.0\", no supportedInterfaces), as a stale build or cache would.",
	Specs:       []string{"DISC-002", "DISC-008"},
})

// v03CardBody renders a card the way a v0.3 build served it.
func v03CardBody(c a2a.AgentCard) []byte {
	type iface struct {
		URL       string `json:"url"`
		Transport string `json:"transport"`
	}
	var extra []iface
	for _, i := range c.SupportedInterfaces[1:] {
		extra = append(extra, iface{URL: i.URL, Transport: i.ProtocolBinding})
	}
	b, _ := json.Marshal(map[string]any{
		"name":                              c.Name,
		"description":                       c.Description,
		"url":                               c.SupportedInterfaces[0].URL,
		"preferredTransport":                c.SupportedInterfaces[0].ProtocolBinding,
		"additionalInterfaces":              extra,
		"protocolVersion":                   "0.3.0",
		"version":                           c.Version,
		"capabilities":                      map[string]any{"streaming": c.Streaming(), "pushNotifications": c.PushNotifications()},
		"defaultInputModes":                 c.DefaultInputModes,
		"defaultOutputModes":                c.DefaultOutputModes,
		"skills":                            c.Skills,
		"supportsAuthenticatedExtendedCard": c.ExtendedAgentCard(),
	})
	return b
}

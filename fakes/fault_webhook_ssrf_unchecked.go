package fakes

// faultWebhookSSRFUnchecked: Options.WebhookAllow is ignored, so a push config
// naming any loopback or private address is accepted and delivered to (§13.2
// SHOULD reject them).
var faultWebhookSSRFUnchecked = register(FaultInfo{
	Name:        "webhook-ssrf-unchecked",
	Description: "Webhook URLs on loopback and private addresses outside the allow-list are accepted and delivered to (SSRF): any client can make the agent POST to its internal network.",
	Specs:       []string{"PUSH-010"},
})

package fakes

// faultDroppedExtensionAccepted: a build that dropped the previous build's
// extension (PreviousBuildExtension; its card no longer lists it) still
// answers a request naming it in A2A-Extensions with the extension echoed
// as activated, as the previous build did: a client acting on the stale card
// is told the extension is in force on a build that no longer supports it
// (scenario 3).
var faultDroppedExtensionAccepted = register(FaultInfo{
	Name:        "dropped-extension-accepted",
	Scenario:    scenarioStaleCDN,
	Description: "A later build whose card no longer lists the previous build's extension still answers a request that names it in A2A-Extensions with A2A-Extensions naming it back, claiming to have activated an extension it dropped, instead of ignoring it or refusing the request.",
	Specs:       []string{"ROLL-007"},
	// Only the extensions topic doc's SHOULD (the response lists the
	// extensions activated) is broken: no MUST forbids the false echo.
	Soft: true,
})

package fakes

// faultCardNotJSON: The well-known card path answers 200 with an HTML page (a web app's catch-all route), not the JSON card.
var faultCardNotJSON = register(FaultInfo{
	Name:        "card-not-json",
	Scenario:    "",
	Description: "The well-known card path answers 200 with an HTML page (a web app's catch-all route), not the JSON card.",
	Specs:       []string{"DISC-001"},
})

package clientdriver

import "time"

// slowDelay is how long the slow client waits before each request it sends.
const slowDelay = time.Second

// variantSlow: every request the client sends (card, key set, operations)
// goes out a second late, as an orchestrator that thinks between calls
// (an LLM planner, a queue) does. Nothing in the text bounds how quickly a
// client acts; the specs that script races must wait for it ("late is not
// lost").
var variantSlow = registerVariant(Variant{
	Name:        "slow",
	Description: "Waits 1 s before each request it sends (card, key set, every operation), as an orchestrator that plans between calls does.",
})

package clientdriver

import "strings"

// variantBindingOnlySelection: a client that selects an interface by its
// binding alone, whatever protocolVersion it declares, as A2A v1.0.1 §8.3.2
// can be read ("select the first supported transport", where §3.6.2 calls a
// binding a transport: "Agents CAN expose multiple interfaces for the same
// transport with different versions"). The reference client reads it the
// other way: an interface of a version it does not speak is not one it
// supports. The text does not settle which, so CLI-005 reports this choice
// as a disputed finding, never a verdict.
var variantBindingOnlySelection = registerVariant(Variant{
	Name:        "binding-only-selection",
	Description: "Selects interfaces by binding alone, also one that declares a protocolVersion it does not speak (0.3), and speaks 1.0 to it.",
	Specs:       []string{"CLI-005"},
})

// speaksVersion says whether the client speaks an interface's declared
// protocolVersion: 1.x (§3.6: Major.Minor; a patch is never considered),
// or any, for binding-only-selection.
func (d *Driver) speaksVersion(v string) bool {
	return d.variants.has(variantBindingOnlySelection) || v == "" || v == "1" || strings.HasPrefix(v, "1.")
}

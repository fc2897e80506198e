package fakes

import "fmt"

// faultPushAuthFromCardAfterRotation: scenario 1's push credentials in a
// second shape. At generation 1 every push carries the scheme and
// credentials of the task's own config, so PUSH-005 (which runs on an
// unrotated deployment) sees nothing wrong; once the card has rotated
// (generation 2 on) the dispatcher signs pushes "the card's way", with an
// Authorization derived from the current card, as the worker in scenario 1
// did after its rolling restart. Only a spec whose configs see a rotation
// catches it.
var faultPushAuthFromCardAfterRotation = register(FaultInfo{
	Name:        "push-auth-from-card-after-rotation",
	Scenario:    scenarioRotation,
	Description: "Pushes carry the config's own credentials at generation 1; from generation 2 on (after a card rotation) they carry an Authorization derived from the current card (\"<card scheme> card-generation-<N>\") instead.",
	Specs:       []string{"ROLL-003", "ROLL-009"},
})

// rotatedPushAuthorization is the Authorization of a push under the fault
// once the card rotated, and whether it applies.
func (a *Agent) rotatedPushAuthorization() (string, bool) {
	if !a.faults.has(faultPushAuthFromCardAfterRotation) {
		return "", false
	}
	st := a.cardSnapshot()
	if st.gen < 2 {
		return "", false
	}
	scheme := st.authScheme
	if scheme == "" {
		scheme = "Bearer"
	}
	return fmt.Sprintf("%s card-generation-%d", scheme, st.gen), true
}

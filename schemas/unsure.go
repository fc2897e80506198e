package schemas

import (
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// Unsure reports whether a violation found with the named schema rests on a
// point the spec itself leaves open (the A2A v1.0.1 text is silent or
// contradicts itself), and says why. The schemas
// apply the strict reading so that the observation is recorded; a suite that
// gets ok == true must not fail the vendor for it (DESIGN.md: where the spec is
// ambiguous, accept every allowed reading and record which one was seen).
//
// Today there is one such point: an AgentCard (public or extended) whose
// "skills" array is empty. §5.7 says a REQUIRED array MUST have at least one
// element, while the §8.4.1 canonicalization example keeps "skills": []
// (A2A v1.0.1 §5.7, §8.4.1). A missing "skills" member is not unsure.
func Unsure(name string, v invariants.Violation) (reason string, ok bool) {
	if name == AgentCard && v.Invariant == Invariant && v.Where == "/skills" && strings.HasPrefix(v.Expected, "at least 1 ") {
		return "UNSURE (A2A v1.0.1 §5.7 against §8.4.1): §5.7 requires at least one element in the REQUIRED 'skills' array, " +
			"but the spec's own §8.4.1 example card has \"skills\": []", true
	}
	return "", false
}

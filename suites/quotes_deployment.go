package suites

import "github.com/a2a-conform/a2a-conform/reports"

// The parts several webhook (PUSH) and rollout (ROLL) specs' Grounds share:
// sentences of the A2A text, and below them the readings built on them.

// Sentences several of them rest on.
var (
	// depAtLeastOnce is the one MUST on delivery itself.
	depAtLeastOnce = spec("4.3.3", "Agents MUST attempt delivery at least once for each configured webhook")
	// depOnUpdate says what is delivered: a POST on a task update.
	depOnUpdate = spec("4.3.3", "When a task update occurs, the agent sends an HTTP POST request to the configured webhook URL.")
	// depServerDecides leaves to the agent which updates it pushes.
	depServerDecides = topic("streaming-and-async", "The A2A Server decides when to send a push notification, typically when a task reaches a significant state change (for example, terminal state, input-required, or auth-required).")
	// depConfigPersists is the MUST on a config's lifetime.
	depConfigPersists = spec("3.1.7", "The configuration MUST persist until task completion or explicit deletion.")
	// depPushCredentials is the MUST on a push's credentials.
	depPushCredentials = spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the … PushNotificationConfig.authentication … field.")
	// depCannotRestart is the finality of a terminal state.
	depCannotRestart = topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart.")
)

// depRolledConfigQuotes are the sentences ROLL-004 and ROLL-009 rest on: a
// config accepted mid-rollout persists, gets its delivery attempted with its
// own credentials, and the agent chooses which updates it pushes. A fresh
// slice each call, so that no spec's basis can change another's.
func depRolledConfigQuotes() []reports.Quote {
	return []reports.Quote{depConfigPersists, depAtLeastOnce, depPushCredentials, depServerDecides}
}

// depTerminalPushReading is how the MUST PUSH specs that wait for the
// terminal state's push read their level.
const depTerminalPushReading = "The level rests on §4.3.3 read as a whole: when a task update occurs the agent sends a POST to " +
	"the configured webhook (the text's indicative), and delivery MUST be attempted at least once for each configured " +
	"webhook. The streaming-and-async topic lets the agent decide which updates it pushes, naming the terminal state " +
	"first among them; so only the terminal state's push is owed and judged, and the other states seen by polling " +
	"are reported, never judged."

// depTerminalPushInvariant is the reading of the specs that owe a config
// its task's terminal push.
const depTerminalPushInvariant = "No single MUST sentence states this invariant. §4.3.3 requires at least one " +
	"delivery attempt for each configured webhook and sends a POST when a task update occurs; the " +
	"streaming-and-async topic lets the agent choose which updates it pushes and names the terminal state first " +
	"among them. Scenario 2's failure is a config acknowledged whose task then ended unannounced. So the terminal " +
	"state's push is owed and judged, and the other states seen by polling are reported, never judged."

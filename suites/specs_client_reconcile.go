package suites

import (
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// clientReconcileSpecs are the last two decision boundaries of scenarios 1
// and 3 as a client meets them on its push receiver: a refused push (401)
// sends the client back to the agent for the task, and a pushed terminal
// state after an acknowledged cancel is not merged. The sentence each rests
// on is in docs/levels.md.
var clientReconcileSpecs = []Info{
	{
		ID: "CLI-037", Suite: Client, Level: SHOULD,
		Supplied: []string{reports.PieceReceiver},
		Title:    "After its receiver refused a push (401), the client re-fetches the task before it acts on it again",
		Sections: []string{"4.3.3", "13.2"}, Scenario: "1",
		Why: "Scenario 1: \"do not retry a webhook 401 against a task you have not re-fetched. A 401 on a push " +
			"callback is the primary signal that the card generation changed.\" While the client's task is " +
			"working, the card rotates (version 2.0.0, Bearer advertised) and a push for the task arrives with " +
			"Bearer credentials of the new generation instead of the config's token. The receiver refuses it " +
			"(§13.2: clients MUST validate webhook authenticity); the client must then re-fetch the task " +
			"(GetTask, or a SubscribeToTask snapshot) before it sends anything else about it or reports a final " +
			"state, or raise it for reconciliation. The real pushes, with the config's token, go on and complete the task. No MUST " +
			"sentence binds the client to re-fetch (the streaming-and-async topic describes GetTask after a " +
			"push as what a client typically does, with no keyword), so a miss warns. A client that registered no push config, or did not refuse the push, " +
			"is not judged.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				spec("13.2", "Clients MUST validate webhook authenticity using the provided authentication credentials"),
				topic("streaming-and-async", "Upon receiving a push notification (and successfully verifying its authenticity), the client typically uses the GetTask RPC method with the taskId from the notification to retrieve the complete, updated Task object, including any new artifacts."),
			},
			Reading: "The refusal rests on the MUST of 13.2 (the push carries another generation's credentials, not the " +
				"config's). No sentence binds the client to re-fetch the task after it: the text calls GetTask after a push the " +
				"typical pattern, with no keyword, and scenario 1 makes a refused push the sign to re-fetch. A guard without a " +
				"MUST sentence, so a miss warns.",
			Scenario: scenario1,
		},
	},
	{
		ID: "CLI-038", Suite: Client, Level: INVARIANT,
		Supplied: []string{reports.PieceReceiver, reports.PieceState},
		Title:    "After its cancel is acknowledged, the client never takes a later terminal state from a push",
		Sections: []string{"3.1.5", "4.2", "4.3.3"}, Scenario: "3",
		Why: "Scenario 3, the push channel (CLI-023 judges the stream and polls): the client follows its task " +
			"by push and cancels it once a push says WORKING; the agent acknowledges TASK_STATE_CANCELED and " +
			"pushes CANCELED, and then a push with the config's own token says TASK_STATE_COMPLETED, as a " +
			"worker that ignored the cancel would send. A task in a terminal state cannot restart (A2A v1.0.1 " +
			"docs/topics/life-of-a-task.md), so the client must keep the acknowledged CANCELED: a client that merges the pushed " +
			"COMPLETED fails. Raising the contradiction (a warning or an error) is the scenario's guard with no " +
			"MUST sentence behind it: not raising it warns. Driver action push-cancel; a driver that does not " +
			"know it makes the case could-not-run.",
		Timeout: 60 * time.Second,
		Grounds: reports.Basis{
			Quotes: []reports.Quote{
				topic("life-of-a-task", "Once a task reaches a terminal state (completed, canceled, rejected, or failed), it cannot restart."),
				proto("Indicates that a task was canceled before completion. This is a terminal state."),
				spec("3.1.5", "The operation attempts to cancel the specified task and returns its updated state."),
				spec("4.3.3", "The agent MUST include authentication credentials in the request headers as specified in the"),
			},
			Reading: "No single MUST sentence states this invariant. CancelTask returns the task's updated state; CANCELED is a " +
				"terminal state and a task in a terminal state cannot restart, so once the agent has answered a cancel with " +
				"CANCELED no later state of that task is the task's. The later push carries the config's own credentials, as " +
				"the agent MUST send them, so the receiver cannot refuse it as forged; a client that merges its COMPLETED holds " +
				"a state the task can no longer reach. Scenario 3 (cancel then complete) routes it to reconciliation; merging " +
				"it fails, not raising it warns (that guard has no MUST sentence).",
			Scenario: scenario3,
		},
	},
}

func init() { register(clientReconcileSpecs...) }

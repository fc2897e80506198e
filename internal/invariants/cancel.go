package invariants

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// CancelAnswer is how the agent answered a CancelTask.
type CancelAnswer string

const (
	// CancelAcked: the answer was the task in TASK_STATE_CANCELED.
	CancelAcked CancelAnswer = "acked"
	// CancelPending: the answer was the task in a non-terminal state (an
	// asynchronous cancel; A2A v1.0 §3.1.5 UNSURE). The final state decides.
	CancelPending CancelAnswer = "pending"
	// CancelRefused: TaskNotCancelableError.
	CancelRefused CancelAnswer = "refused"
	// CancelUnknown: no usable answer (transport error, timeout, other error).
	CancelUnknown CancelAnswer = "unknown"
)

// TrialResult is the judgement of one cancel-then-complete trial.
type TrialResult struct {
	// Outcome is "canceled" (cancel won), "completed-first" (cancel refused,
	// the task ended by itself), or "" when indeterminate.
	Outcome string
	// Violations break the invariant; Indeterminate says why the outcome is
	// unknown when there are none.
	Violations    []Violation
	Indeterminate string
	// Answer is how the cancel was answered (AnswerOf).
	Answer CancelAnswer
}

// CancelRace judges one trial of scenario 3 from everything observed of the
// task (GetTask polls, stream events, pushes, the cancel answer itself):
//   - cancel acknowledged → every terminal observation, before or after, is
//     CANCELED, and the task settles CANCELED;
//   - cancel refused → no observation shows CANCELED and the task settles in a
//     terminal state of its own;
//   - no usable answer, or a task never seen terminal → indeterminate.
//
// final is the last state the harness saw after the trial settled ("" if none).
func CancelRace(taskID string, answer CancelAnswer, obs []Observation, final a2a.TaskState) TrialResult {
	task := ForTask(obs, taskID)
	res := TrialResult{Answer: answer}
	res.Violations = TerminalImmutable(task)
	switch answer {
	case CancelAcked:
		for _, o := range task {
			if o.State.Terminal() && o.State != a2a.TaskStateCanceled {
				res.Violations = append(res.Violations, Violation{
					Invariant: "cancel-acknowledged-is-final",
					Where:     o.where(),
					Expected:  "TASK_STATE_CANCELED: the cancel was acknowledged",
					Actual:    fmt.Sprintf("%s via %s", o.State, o.Source),
				})
			}
		}
		if final != "" && final != a2a.TaskStateCanceled {
			res.Violations = append(res.Violations, Violation{
				Invariant: "cancel-acknowledged-is-final", Where: "task " + taskID + ", final GetTask",
				Expected: "TASK_STATE_CANCELED", Actual: string(final),
			})
		}
		res.Outcome = "canceled"
	case CancelPending:
		switch {
		case final == a2a.TaskStateCanceled:
			res.Outcome = "canceled"
		case final.Terminal():
			res.Outcome = "completed-first"
		default:
			res.Indeterminate = fmt.Sprintf("cancel answered with a non-terminal task and the task was still %s when the trial ended", orNone(final))
		}
	case CancelRefused:
		for _, o := range task {
			if o.State == a2a.TaskStateCanceled {
				res.Violations = append(res.Violations, Violation{
					Invariant: "cancel-refused-not-applied",
					Where:     o.where(),
					Expected:  "the task's own terminal state: the cancel was refused with TaskNotCancelableError",
					Actual:    "TASK_STATE_CANCELED via " + string(o.Source),
				})
			}
		}
		if final.Terminal() {
			res.Outcome = "completed-first"
		} else if len(res.Violations) == 0 {
			res.Indeterminate = fmt.Sprintf("cancel was refused but the task was still %s when the trial ended", orNone(final))
		}
	default:
		if len(res.Violations) == 0 {
			res.Indeterminate = "the cancel got no usable answer"
		}
	}
	if len(res.Violations) > 0 {
		res.Indeterminate = ""
	}
	return res
}

func orNone(s a2a.TaskState) string {
	if s == "" {
		return "unobserved"
	}
	return string(s)
}

// RaceBound states the statistical bound of a race run: with v violations in
// n trials and v == 0, the violation rate is below 3/n at 95% confidence
// (the "rule of three": (1-p)^n ≥ 0.05 ⇒ p ≤ -ln(0.05)/n ≈ 3/n).
func RaceBound(n, v int) string {
	if n == 0 {
		return "no trials completed"
	}
	if v > 0 {
		return fmt.Sprintf("%d violation(s) in %d trials", v, n)
	}
	return fmt.Sprintf("0 violations in %d trials: violation rate < %.2g per trial at 95%% confidence (3/n)", n, 3/float64(n))
}

// RaceTally counts the trials of a cancel-then-complete race by side: the
// cancel landed first ("canceled") or the task ended first
// ("completed-first"), with the violating trials of each side, and the
// trials whose outcome stayed unknown.
type RaceTally struct {
	Decided, Unknown         int
	Canceled, CompletedFirst int
	// VCanceled and VCompleted count trials with violations on each side.
	VCanceled, VCompleted int
	// Violating counts every trial with violations, whatever its side.
	Violating    int
	Violations   []Violation
	FirstUnknown string
}

// TallyRace sums trial results. A trial with violations is decided, on the
// side its outcome names.
func TallyRace(results []TrialResult) RaceTally {
	var s RaceTally
	for _, r := range results {
		if len(r.Violations) == 0 && r.Indeterminate != "" {
			s.Unknown++
			if s.FirstUnknown == "" {
				s.FirstUnknown = r.Indeterminate
			}
			continue
		}
		s.Decided++
		s.Violations = append(s.Violations, r.Violations...)
		if len(r.Violations) > 0 {
			s.Violating++
		}
		switch r.Outcome {
		case "canceled":
			s.Canceled++
			if len(r.Violations) > 0 {
				s.VCanceled++
			}
		case "completed-first":
			s.CompletedFirst++
			if len(r.Violations) > 0 {
				s.VCompleted++
			}
		}
	}
	return s
}

package suites

import "time"

// AwaitPoll is the pause before the next GetTask of a spec that polls a
// task by a rule of its own (reading every answer, not only the last, as
// the rollout specs' fate of a task after a roll does): the pace of Await,
// so that such a poll asks a slow or rate-limited agent no more often.
func AwaitPoll(waited time.Duration) time.Duration { return awaitPoll(waited) }

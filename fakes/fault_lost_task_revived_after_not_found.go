package fakes

import "time"

// lostTaskRevivalDelay is how long after its TaskNotFoundError answer the
// worker of lost-task-revived-after-not-found revives the task.
const lostTaskRevivalDelay = 1500 * time.Millisecond

// faultLostTaskRevivedAfterNotFound: the second shape of
// lost-task-recreated-after-not-found. The follow-up naming a lost task is
// answered TaskNotFoundError; 1.5 s later a worker that replays queued
// messages applies it anyway, re-creating the task under that id in the
// lost task's own context (read from the store), so that the task shows up
// again where the client's conversation was, holding the message the agent
// refused.
var faultLostTaskRevivedAfterNotFound = register(FaultInfo{
	Name:        "lost-task-revived-after-not-found",
	Scenario:    scenarioRotation,
	Description: "Tasks created before the instance started are unknown to it; a follow-up naming one is answered TaskNotFoundError, and 1.5 s later a worker applies it anyway, re-creating the task under that id in the lost task's own context, holding the refused follow-up.",
	Specs:       []string{"ROLL-002", "ROLL-003"},
})

package fakes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

func TestCardInterfaces(t *testing.T) {
	n := startNode(t, Options{})
	c := n.card
	if len(c.SupportedInterfaces) != 2 || c.SupportedInterfaces[0].ProtocolBinding != a2a.BindingJSONRPC ||
		c.SupportedInterfaces[1].ProtocolBinding != a2a.BindingHTTPJSON {
		t.Fatalf("interfaces %+v", c.SupportedInterfaces)
	}
	for _, i := range c.SupportedInterfaces {
		if !strings.HasPrefix(i.URL, n.srv.URL+"/") || i.ProtocolVersion != "1.0" {
			t.Fatalf("interface %+v is not an absolute URL on %s", i, n.srv.URL)
		}
	}
	if !c.Streaming() || !c.PushNotifications() || !c.ExtendedAgentCard() || !c.HasExtension(directive.URI) {
		t.Fatalf("capabilities %+v", c.Capabilities)
	}
	if c.Version != "1.1.0" || len(c.Skills) == 0 || len(c.Extra) != 0 {
		t.Fatalf("version %q skills %d extra %v", c.Version, len(c.Skills), c.Extra.Keys())
	}
}

func TestEchoWithoutDirective(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, userMsg("hello there"), nil)
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("blocking send returned %s", task.Status.State)
		}
		if len(task.Artifacts) != 1 || *task.Artifacts[0].Parts[0].Text != "hello there" {
			t.Fatalf("artifacts %+v", task.Artifacts)
		}
		if len(task.History) != 1 || task.History[0].TaskID != task.ID || task.History[0].ContextID != task.ContextID || task.ContextID == "" {
			t.Fatalf("history %+v", task.History)
		}
		if !strings.HasSuffix(task.Status.Timestamp, "Z") || len(task.Status.Timestamp) != len("2006-01-02T15:04:05.000Z") {
			t.Fatalf("timestamp %q", task.Status.Timestamp)
		}
	})
}

func TestReturnImmediatelyAndGetTask(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, scripted(directive.Directive{DelayMs: 30}), immediate())
		if task.Status.State != a2a.TaskStateSubmitted {
			t.Fatalf("returnImmediately gave %s", task.Status.State)
		}
		done := waitState(t, c, task.ID, a2a.TaskStateCompleted)
		if len(done.Artifacts) != 1 {
			t.Fatalf("artifacts %+v", done.Artifacts)
		}
		// A second message adds history: historyLength picks the newest.
		h0, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID, HistoryLength: i32(0)})
		if err != nil || len(h0.History) != 0 {
			t.Fatalf("historyLength 0: %v %+v", err, h0)
		}
		h1, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID, HistoryLength: i32(1)})
		if err != nil || len(h1.History) != 1 {
			t.Fatalf("historyLength 1: %v %+v", err, h1)
		}
		_, err = c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: task.ID, HistoryLength: i32(-1)})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
		_, err = c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: "no-such-task"})
		expectKind(t, err, a2a.ErrTaskNotFound)
	})
}

func TestOutcomes(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		for _, o := range []directive.Outcome{directive.OutcomeFailed, directive.OutcomeRejected} {
			task := sendTask(t, c, scripted(directive.Directive{Outcome: o}), nil)
			if task.Status.State != o.State() || task.Status.Message == nil || len(task.Artifacts) != 0 {
				t.Fatalf("%s: %+v", o, task.Status)
			}
		}
		for _, o := range []directive.Outcome{directive.OutcomeInputRequired, directive.OutcomeAuthRequired} {
			task := sendTask(t, c, scripted(directive.Directive{Outcome: o}), nil)
			if task.Status.State != o.State() || task.Status.Message == nil || task.Status.Message.Role != a2a.RoleAgent {
				t.Fatalf("%s: %+v", o, task.Status)
			}
			// The next message on the task (without a directive) completes it.
			next := userMsg("here you are")
			next.TaskID = task.ID
			done := sendTask(t, c, next, nil)
			if done.Status.State != a2a.TaskStateCompleted || done.ID != task.ID || done.ContextID != task.ContextID {
				t.Fatalf("%s then input: %+v", o, done.Status)
			}
			if *done.Artifacts[0].Parts[0].Text != "here you are" || len(done.History) != 3 {
				t.Fatalf("%s then input: artifacts %+v, history %d", o, done.Artifacts, len(done.History))
			}
		}
		resp := send(t, c, scripted(directive.Directive{Outcome: directive.OutcomeMessage, Text: "just a reply"}), nil)
		if resp.Message == nil || resp.Task != nil || *resp.Message.Parts[0].Text != "just a reply" ||
			resp.Message.Role != a2a.RoleAgent || resp.Message.ContextID == "" {
			t.Fatalf("message outcome: %+v", resp)
		}
	})
}

func TestMessagesToUnknownAndTerminalTasks(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		before, err := c.ListTasks(ctxT(), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := userMsg("follow-up")
		m.TaskID = "client-invented-id"
		_, err = c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m})
		expectKind(t, err, a2a.ErrTaskNotFound)
		after, _ := c.ListTasks(ctxT(), nil)
		if after.TotalSize != before.TotalSize {
			t.Fatalf("a message to an unknown task created one: %d tasks, then %d", before.TotalSize, after.TotalSize)
		}
		if _, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: m.TaskID}); err == nil {
			t.Fatal("the unknown id became a task")
		}

		done := sendTask(t, c, userMsg("x"), nil)
		m2 := userMsg("more")
		m2.TaskID = done.ID
		_, err = c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m2})
		expectKind(t, err, a2a.ErrUnsupportedOperation)
		if got := getTask(t, c, done.ID); got.Status.State != a2a.TaskStateCompleted || len(got.History) != 1 {
			t.Fatalf("the refused message changed the task: %+v", got.Status)
		}

		m3 := userMsg("wrong context")
		m3.TaskID, m3.ContextID = done.ID, "another-context"
		_, err = c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m3})
		if err == nil {
			t.Fatal("a contextId that contradicts the task was accepted")
		}
	})
}

func TestCancel(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, scripted(directive.Directive{DelayMs: 60_000}), immediate())
		got, err := c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		if err != nil || got.Status.State != a2a.TaskStateCanceled {
			t.Fatalf("cancel: %v %+v", err, got)
		}
		// An already-canceled task: TaskNotCancelableError (documented reading).
		_, err = c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: task.ID})
		expectKind(t, err, a2a.ErrTaskNotCancelable)
		done := sendTask(t, c, userMsg("x"), nil)
		_, err = c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: done.ID})
		expectKind(t, err, a2a.ErrTaskNotCancelable)
		_, err = c.CancelTask(ctxT(), &a2a.CancelTaskRequest{ID: "nope"})
		expectKind(t, err, a2a.ErrTaskNotFound)
		if s := getTask(t, c, task.ID).Status.State; s != a2a.TaskStateCanceled {
			t.Fatalf("after cancel GetTask says %s", s)
		}
	})
}

func TestListTasks(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		ctxID := "ctx-" + newID()
		var ids []string
		for i := 0; i < 5; i++ {
			m := userMsg(fmt.Sprint("task ", i))
			m.ContextID = ctxID
			task := sendTask(t, c, m, nil)
			ids = append(ids, task.ID)
		}
		all, err := c.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: ctxID})
		if err != nil {
			t.Fatal(err)
		}
		if all.TotalSize != 5 || len(all.Tasks) != 5 || all.PageSize != 50 || all.NextPageToken == nil || *all.NextPageToken != "" {
			t.Fatalf("list: total %d, %d tasks, pageSize %d, next %v", all.TotalSize, len(all.Tasks), all.PageSize, all.NextPageToken)
		}
		for i, task := range all.Tasks {
			if task.Artifacts != nil {
				t.Fatalf("artifacts present without includeArtifacts: %+v", task.Artifacts)
			}
			if i > 0 && task.Status.Timestamp > all.Tasks[i-1].Status.Timestamp {
				t.Fatalf("not newest first: %s after %s", task.Status.Timestamp, all.Tasks[i-1].Status.Timestamp)
			}
		}
		// Pages of 2 walk the same tasks in the same order.
		var walked []string
		token := ""
		for page := 0; page < 5; page++ {
			resp, err := c.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: ctxID, PageSize: i32(2), PageToken: token})
			if err != nil {
				t.Fatal(err)
			}
			for _, task := range resp.Tasks {
				walked = append(walked, task.ID)
			}
			token = *resp.NextPageToken
			if token == "" {
				break
			}
		}
		if len(walked) != 5 {
			t.Fatalf("pagination walked %v", walked)
		}
		for i := range walked {
			if walked[i] != all.Tasks[i].ID {
				t.Fatalf("page order %v differs from %v", walked, all.Tasks)
			}
		}
		withArts, _ := c.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: ctxID, IncludeArtifacts: boolp(true)})
		if len(withArts.Tasks[0].Artifacts) != 1 {
			t.Fatalf("includeArtifacts: %+v", withArts.Tasks[0].Artifacts)
		}
		// statusTimestampAfter is inclusive.
		oldest := all.Tasks[4]
		since, _ := c.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: ctxID, StatusTimestampAfter: oldest.Status.Timestamp})
		if since.TotalSize < 1 || since.Tasks[len(since.Tasks)-1].Status.Timestamp != oldest.Status.Timestamp {
			t.Fatalf("statusTimestampAfter=%s dropped the task stamped at it: %d tasks", oldest.Status.Timestamp, since.TotalSize)
		}
		byState, _ := c.ListTasks(ctxT(), &a2a.ListTasksRequest{ContextID: ctxID, Status: a2a.TaskStateWorking})
		if byState.TotalSize != 0 || len(byState.Tasks) != 0 {
			t.Fatalf("status filter: %d", byState.TotalSize)
		}
		for _, bad := range []int32{0, 101, -1} {
			_, err := c.ListTasks(ctxT(), &a2a.ListTasksRequest{PageSize: i32(bad)})
			expectCode(t, err, a2a.CodeInvalidParams, 400)
		}
		_, err = c.ListTasks(ctxT(), &a2a.ListTasksRequest{PageToken: "garbage"})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
		_, err = c.ListTasks(ctxT(), &a2a.ListTasksRequest{StatusTimestampAfter: "yesterday"})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
		_, err = c.ListTasks(ctxT(), &a2a.ListTasksRequest{Status: "completed"})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
	})
}

func TestStreamingMessage(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		s, err := c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{
			Message: scripted(directive.Directive{DelayMs: 5, ArtifactChunks: intp(3), Text: "abcdef"})})
		if err != nil {
			t.Fatal(err)
		}
		evs := collect(t, s)
		want := "task:TASK_STATE_SUBMITTED status:TASK_STATE_WORKING artifact(append=false,last=false) " +
			"artifact(append=true,last=false) artifact(append=true,last=true) status:TASK_STATE_COMPLETED"
		if got := describe(evs); got != want {
			t.Fatalf("events:\n got %s\nwant %s", got, want)
		}
		var text string
		for _, e := range evs {
			if e.ArtifactUpdate != nil {
				text += *e.ArtifactUpdate.Artifact.Parts[0].Text
			}
		}
		if text != "abcdef" {
			t.Fatalf("chunks concatenate to %q", text)
		}
		task := getTask(t, c, evs[0].Task.ID)
		if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 3 {
			t.Fatalf("stored artifact %+v", task.Artifacts)
		}

		s, err = c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{Outcome: directive.OutcomeMessage})})
		if err != nil {
			t.Fatal(err)
		}
		if got := describe(collect(t, s)); got != "message" {
			t.Fatalf("message outcome streamed %s", got)
		}

		// Input-required ends the streamed turn; the next message resumes it.
		s, _ = c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{Outcome: directive.OutcomeInputRequired})})
		evs = collect(t, s)
		if got := describe(evs); got != "task:TASK_STATE_SUBMITTED status:TASK_STATE_WORKING status:TASK_STATE_INPUT_REQUIRED" {
			t.Fatalf("input-required stream: %s", got)
		}
		next := userMsg("more")
		next.TaskID = evs[0].Task.ID
		s, _ = c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: next})
		if got := describe(collect(t, s)); got != "task:TASK_STATE_WORKING artifact(append=false,last=true) status:TASK_STATE_COMPLETED" {
			t.Fatalf("resumed stream: %s", got)
		}
	})
}

func TestSubscribe(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, scripted(directive.Directive{DelayMs: 40}), immediate())
		s, err := c.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			t.Fatal(err)
		}
		evs := collect(t, s)
		if len(evs) < 2 || evs[0].Task == nil || evs[0].Task.ID != task.ID {
			t.Fatalf("first event is not the task snapshot: %s", describe(evs))
		}
		if last := evs[len(evs)-1]; last.StatusUpdate == nil || last.StatusUpdate.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("stream did not end on the terminal state: %s", describe(evs))
		}
		_, err = c.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		expectKind(t, err, a2a.ErrUnsupportedOperation)
		_, err = c.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: "nope"})
		expectKind(t, err, a2a.ErrTaskNotFound)
	})
	// REST subscribe also answers GET (the proto's verb).
	get, err := client.New(n.card.SupportedInterfaces[1], client.WithSubscribeVerb("GET"))
	if err != nil {
		t.Fatal(err)
	}
	task := sendTask(t, get, scripted(directive.Directive{DelayMs: 20}), immediate())
	s, err := get.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
	if err != nil {
		t.Fatal(err)
	}
	if evs := collect(t, s); evs[0].Task == nil {
		t.Fatalf("GET subscribe: %s", describe(evs))
	}
}

// Several subscribers, on both bindings, see the same events in the same order.
func TestSubscribersSeeSameOrder(t *testing.T) {
	n := startNode(t, Options{})
	task := sendTask(t, n.rpc(), scripted(directive.Directive{DelayMs: 30, ArtifactChunks: intp(4)}), immediate())
	var streams []*client.Stream
	for i := 0; i < 4; i++ {
		s, err := n.clients[i%2].SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, s)
	}
	var tails []string
	for _, s := range streams {
		evs := collect(t, s)
		tails = append(tails, describe(evs[1:]))
	}
	// Later subscribers may start later, so each tail must be a suffix of the
	// first subscriber's.
	for i, tl := range tails {
		if !strings.HasSuffix(tails[0], tl) || !strings.HasSuffix(tl, "status:TASK_STATE_COMPLETED") {
			t.Fatalf("subscriber %d saw %q; subscriber 0 saw %q", i, tl, tails[0])
		}
	}
}

func TestPushConfigCRUD(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, userMsg("x"), nil)
		created, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{
			TaskID: task.ID, URL: "http://127.0.0.1:1/hook", Token: "tok",
			Authentication: &a2a.AuthenticationInfo{Scheme: "Bearer", Credentials: "secret"}})
		if err != nil || created.ID == "" || created.TaskID != task.ID {
			t.Fatalf("create: %v %+v", err, created)
		}
		named, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, ID: "mine", URL: "http://127.0.0.1:1/other"})
		if err != nil || named.ID != "mine" {
			t.Fatalf("create with id: %v %+v", err, named)
		}
		got, err := c.GetTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: created.ID})
		if err != nil || got.URL != created.URL || got.Authentication == nil || got.Authentication.Credentials != "secret" {
			t.Fatalf("get: %v %+v", err, got)
		}
		list, err := c.ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID})
		if err != nil || len(list.Configs) != 2 || list.Configs[0].ID != created.ID {
			t.Fatalf("list: %v %+v", err, list)
		}
		page, err := c.ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID, PageSize: 1})
		if err != nil || len(page.Configs) != 1 || page.NextPageToken == "" {
			t.Fatalf("list page: %v %+v", err, page)
		}
		for i := 0; i < 2; i++ { // idempotent
			if err := c.DeleteTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: created.ID}); err != nil {
				t.Fatalf("delete #%d: %v", i+1, err)
			}
		}
		_, err = c.GetTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: created.ID})
		expectKind(t, err, a2a.ErrTaskNotFound)
		_, err = c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: "nope", URL: "http://127.0.0.1:1/"})
		expectKind(t, err, a2a.ErrTaskNotFound)
		err = c.DeleteTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: "nope", ID: "x"})
		expectKind(t, err, a2a.ErrTaskNotFound)
		_, err = c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "ftp://x/"})
		expectCode(t, err, a2a.CodeInvalidParams, 400)
	})
}

func TestCapabilitiesWithdrawn(t *testing.T) {
	n := startNode(t, Options{DisablePush: true, DisableStreaming: true, ExtendedCard: ExtendedCardAbsent, DisableDirective: true})
	if n.card.Streaming() || n.card.PushNotifications() || n.card.ExtendedAgentCard() || n.card.HasExtension(directive.URI) {
		t.Fatalf("card still claims %+v", n.card.Capabilities)
	}
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		task := sendTask(t, c, userMsg("x"), nil)
		_, err := c.CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "http://127.0.0.1:1/"})
		expectKind(t, err, a2a.ErrPushNotificationNotSupported)
		_, err = c.GetTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: "x"})
		expectKind(t, err, a2a.ErrPushNotificationNotSupported)
		_, err = c.ListTaskPushNotificationConfigs(ctxT(), &a2a.ListTaskPushNotificationConfigsRequest{TaskID: task.ID})
		expectKind(t, err, a2a.ErrPushNotificationNotSupported)
		err = c.DeleteTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfigRef{TaskID: task.ID, ID: "x"})
		expectKind(t, err, a2a.ErrPushNotificationNotSupported)
		_, err = c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		expectKind(t, err, a2a.ErrUnsupportedOperation)
		_, err = c.SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		expectKind(t, err, a2a.ErrUnsupportedOperation)
		_, err = c.GetExtendedAgentCard(ctxT(), nil)
		expectKind(t, err, a2a.ErrUnsupportedOperation)
		// With the extension off, a directive part is just data: echo.
		got := sendTask(t, c, scripted(directive.Directive{Outcome: directive.OutcomeFailed}), nil)
		if got.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("directive honoured while the extension is off: %s", got.Status.State)
		}
	})
}

func TestExtendedCard(t *testing.T) {
	served := startNode(t, Options{})
	unconfigured := startNode(t, Options{ExtendedCard: ExtendedCardUnconfigured})
	if !unconfigured.card.ExtendedAgentCard() {
		t.Fatal("unconfigured mode must still claim the capability")
	}
	bothBindings(t, served, func(t *testing.T, c *client.Client) {
		// An authenticated operation (spec §13.3): refused without credentials.
		if _, err := c.GetExtendedAgentCard(ctxT(), nil); err == nil {
			t.Fatal("extended card served without credentials")
		}
		authed, err := client.New(c.Interface(), client.WithHeader("Authorization", "Bearer any-token"))
		if err != nil {
			t.Fatal(err)
		}
		card, err := authed.GetExtendedAgentCard(ctxT(), nil)
		if err != nil || !strings.HasSuffix(card.Name, "(extended)") || len(card.Skills) != len(served.card.Skills)+1 {
			t.Fatalf("extended card: %v %+v", err, card)
		}
	})
	bothBindings(t, unconfigured, func(t *testing.T, c *client.Client) {
		authed, _ := client.New(c.Interface(), client.WithHeader("Authorization", "Bearer any-token"))
		_, err := authed.GetExtendedAgentCard(ctxT(), nil)
		expectKind(t, err, a2a.ErrExtendedAgentCardNotConfigured)
	})
}

func TestPromptMap(t *testing.T) {
	n := startNode(t, Options{DisableDirective: true, PromptMap: true})
	if n.card.HasExtension(directive.URI) {
		t.Fatal("the directive extension is advertised while off")
	}
	c := n.rpc()
	if s := sendTask(t, c, userMsg("Please FAIL THIS TASK now"), nil).Status.State; s != a2a.TaskStateFailed {
		t.Fatalf("fail phrase: %s", s)
	}
	if s := sendTask(t, c, userMsg("ask me for input"), nil).Status.State; s != a2a.TaskStateInputRequired {
		t.Fatalf("input phrase: %s", s)
	}
	if r := send(t, c, userMsg("reply with a message"), nil); r.Message == nil {
		t.Fatalf("message phrase: %+v", r)
	}
	slow := sendTask(t, c, userMsg("work slowly then complete"), immediate())
	if slow.Status.State != a2a.TaskStateSubmitted {
		t.Fatalf("slow phrase: %s", slow.Status.State)
	}
	if s := sendTask(t, c, userMsg("anything else"), nil).Status.State; s != a2a.TaskStateCompleted {
		t.Fatalf("no phrase: %s", s)
	}
}

func TestDirectiveErrors(t *testing.T) {
	n := startNode(t, Options{})
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		bad := userMsg("x", a2a.Part{Data: []byte(`{"a2aConformDirective":{"version":99}}`)})
		_, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: bad})
		ce := expectCode(t, err, a2a.CodeInvalidParams, 400)
		if !strings.Contains(ce.Message, "unsupported directive version 99") {
			t.Fatalf("message %q does not name the version", ce.Message)
		}
	})
}

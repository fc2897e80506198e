package fakes

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// RESTContentType is what HTTP+JSON responses carry: v1.0.1 §11.1 makes
// application/a2a+json the SHOULD. Requests may use it or application/json.
const RESTContentType = "application/a2a+json"

func (a *Agent) writeRESTError(w http.ResponseWriter, oe *opError) {
	if oe.httpStatus == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", retryAfterSeconds)
	}
	challenge(w, oe)
	writeJSON(w, oe.httpStatus, RESTContentType, oe.restBody(!a.faults.has(faultRESTErrorNoErrorInfo)))
}

// restRoute is one matched HTTP+JSON route.
type restRoute struct {
	method   string // the a2a method name
	verbs    []string
	taskID   string
	configID string
}

// matchREST maps an escaped path (relative to the interface URL) to a route
// (spec §11.3; a2a.RESTRoutes). Path segments are unescaped after splitting,
// so an id may contain an escaped '/' or ':'.
func matchREST(rel string) (restRoute, bool) {
	switch rel {
	case "/message:send":
		return restRoute{method: a2a.MethodSendMessage, verbs: []string{http.MethodPost}}, true
	case "/message:stream":
		return restRoute{method: a2a.MethodSendStreamingMessage, verbs: []string{http.MethodPost}}, true
	case "/tasks":
		return restRoute{method: a2a.MethodListTasks, verbs: []string{http.MethodGet}}, true
	case "/extendedAgentCard":
		return restRoute{method: a2a.MethodGetExtendedAgentCard, verbs: []string{http.MethodGet}}, true
	}
	segs := strings.Split(strings.TrimPrefix(rel, "/"), "/")
	if len(segs) < 2 || segs[0] != "tasks" || segs[1] == "" {
		return restRoute{}, false
	}
	unesc := func(s string) (string, bool) {
		v, err := url.PathUnescape(s)
		return v, err == nil && v != ""
	}
	switch len(segs) {
	case 2:
		raw, verb := segs[1], ""
		if i := strings.LastIndexByte(raw, ':'); i >= 0 {
			raw, verb = raw[:i], raw[i+1:]
		}
		id, ok := unesc(raw)
		if !ok {
			return restRoute{}, false
		}
		switch verb {
		case "":
			return restRoute{method: a2a.MethodGetTask, verbs: []string{http.MethodGet}, taskID: id}, true
		case "cancel":
			return restRoute{method: a2a.MethodCancelTask, verbs: []string{http.MethodPost}, taskID: id}, true
		case "subscribe":
			// The proto says GET, the spec prose POST (A2A #1574): both work.
			return restRoute{method: a2a.MethodSubscribeToTask, verbs: []string{http.MethodPost, http.MethodGet}, taskID: id}, true
		}
	case 3, 4:
		if segs[2] != "pushNotificationConfigs" {
			return restRoute{}, false
		}
		id, ok := unesc(segs[1])
		if !ok {
			return restRoute{}, false
		}
		if len(segs) == 3 {
			return restRoute{method: a2a.MethodCreateTaskPushNotificationConfig,
				verbs: []string{http.MethodPost, http.MethodGet}, taskID: id}, true
		}
		cid, ok := unesc(segs[3])
		if !ok {
			return restRoute{}, false
		}
		return restRoute{method: a2a.MethodGetTaskPushNotificationConfig,
			verbs: []string{http.MethodGet, http.MethodDelete}, taskID: id, configID: cid}, true
	}
	return restRoute{}, false
}

func (a *Agent) serveREST(w http.ResponseWriter, r *http.Request) {
	rel := strings.TrimPrefix(stripGeneration(r.URL.EscapedPath()), RESTPath)
	route, ok := matchREST(rel)
	if !ok {
		a.writeRESTError(w, errMethodNotFound(r.Method+" "+truncate(rel, 200)))
		return
	}
	verbOK := false
	for _, v := range route.verbs {
		verbOK = verbOK || r.Method == v
	}
	if !verbOK {
		w.Header().Set("Allow", strings.Join(route.verbs, ", "))
		a.writeRESTError(w, errInvalidRequest("%s does not accept %s", truncate(rel, 200), r.Method).withHTTP(http.StatusMethodNotAllowed))
		return
	}
	if oe := a.checkServiceParams(r); oe != nil {
		a.writeRESTError(w, oe)
		return
	}
	// The two shared routes split by verb.
	switch {
	case route.method == a2a.MethodCreateTaskPushNotificationConfig && r.Method == http.MethodGet:
		route.method = a2a.MethodListTaskPushNotificationConfigs
	case route.method == a2a.MethodGetTaskPushNotificationConfig && r.Method == http.MethodDelete:
		route.method = a2a.MethodDeleteTaskPushNotificationConfig
	}
	ctx := r.Context()
	q := r.URL.Query()
	var (
		result []byte
		stream *eventStream
		oe     *opError
	)
	body := func(into any) *opError {
		b, oe := a.readBody(w, r)
		if oe != nil {
			return oe
		}
		return decodeParams(b, into)
	}
	switch route.method {
	case a2a.MethodSendMessage, a2a.MethodSendStreamingMessage:
		var req a2a.SendMessageRequest
		if oe = body(&req); oe == nil {
			result, stream, oe = a.sendOrStream(ctx, &req, route.method == a2a.MethodSendStreamingMessage)
		}
	case a2a.MethodGetTask:
		req := a2a.GetTaskRequest{ID: route.taskID}
		if req.HistoryLength, oe = queryInt32(q, "historyLength"); oe == nil {
			result, oe = a.getTask(ctx, &req)
			result = a.restTaskView(result)
		}
	case a2a.MethodListTasks:
		var req a2a.ListTasksRequest
		if req, oe = listQuery(q); oe == nil {
			result, oe = a.listTasks(ctx, &req)
		}
	case a2a.MethodCancelTask:
		var req a2a.CancelTaskRequest
		if oe = body(&req); oe == nil {
			req.ID = route.taskID
			result, oe = a.cancel(ctx, &req)
		}
	case a2a.MethodSubscribeToTask:
		var req a2a.SubscribeToTaskRequest
		if r.Method == http.MethodPost {
			oe = body(&req)
		}
		if oe == nil {
			req.ID = route.taskID
			stream, oe = a.subscribe(ctx, &req)
		}
	case a2a.MethodCreateTaskPushNotificationConfig:
		var req a2a.TaskPushNotificationConfig
		if oe = a.createGate(); oe == nil {
			if oe = body(&req); oe == nil {
				req.TaskID = route.taskID
				result, oe = a.createConfig(ctx, &req)
			}
		}
	case a2a.MethodListTaskPushNotificationConfigs:
		req := a2a.ListTaskPushNotificationConfigsRequest{TaskID: route.taskID, PageToken: q.Get("pageToken")}
		var size *int32
		if size, oe = queryInt32(q, "pageSize"); oe == nil {
			if size != nil {
				req.PageSize = *size
			}
			result, oe = a.listConfigsOp(ctx, &req)
		}
	case a2a.MethodGetTaskPushNotificationConfig:
		result, oe = a.getConfigOp(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: route.taskID, ID: route.configID})
	case a2a.MethodDeleteTaskPushNotificationConfig:
		if oe = a.deleteConfigOp(ctx, &a2a.TaskPushNotificationConfigRef{TaskID: route.taskID, ID: route.configID}); oe == nil {
			result = []byte("{}")
		}
	case a2a.MethodGetExtendedAgentCard:
		result, oe = a.extendedCardOp(r)
	}
	if oe != nil {
		a.writeRESTError(w, oe)
		return
	}
	if stream != nil {
		a.pump(ctx, stream, startSSE(w), func(b []byte) []byte { return b })
		return
	}
	writeJSON(w, http.StatusOK, RESTContentType, a.rewrite(result))
}

func queryInt32(q url.Values, name string) (*int32, *opError) {
	s := q.Get(name)
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return nil, errInvalidParams(name, "%s must be a 32-bit integer, got %q", name, truncate(s, 40))
	}
	n := int32(v)
	return &n, nil
}

// listQuery reads ListTasks' query parameters (spec §11.5: camelCase names,
// enum names, ISO 8601 timestamps, true/false).
func listQuery(q url.Values) (a2a.ListTasksRequest, *opError) {
	req := a2a.ListTasksRequest{
		ContextID:            q.Get("contextId"),
		Status:               a2a.TaskState(q.Get("status")),
		PageToken:            q.Get("pageToken"),
		StatusTimestampAfter: q.Get("statusTimestampAfter"),
	}
	var oe *opError
	if req.PageSize, oe = queryInt32(q, "pageSize"); oe != nil {
		return req, oe
	}
	if req.HistoryLength, oe = queryInt32(q, "historyLength"); oe != nil {
		return req, oe
	}
	if s := q.Get("includeArtifacts"); s != "" {
		v, err := strconv.ParseBool(s)
		if err != nil {
			return req, errInvalidParams("includeArtifacts", "includeArtifacts must be true or false, got %q", truncate(s, 40))
		}
		req.IncludeArtifacts = &v
	}
	return req, nil
}

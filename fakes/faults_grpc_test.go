package fakes

import (
	"context"
	"fmt"
	"net"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// grpcClient serves the node's agent over gRPC on loopback and returns a
// client for it.
func grpcClient(e *faultEnv, n *node) *client.Client {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	gs := n.agent.GRPCServer()
	go gs.Serve(ln)
	e.t.Cleanup(gs.Stop)
	c, err := client.New(a2a.AgentInterface{URL: "http://" + ln.Addr().String(), ProtocolBinding: a2a.BindingGRPC})
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func init() {
	faultCases[faultGRPCNoErrorInfo] = func(e *faultEnv) string {
		c := grpcClient(e, e.node(Options{}))
		_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "nope"})
		if ce, ok := client.AsError(err); ok && ce.Status == "NOT_FOUND" && ce.Reason == "" {
			return "gRPC NOT_FOUND without ErrorInfo"
		}
		return ""
	}
	faultCases[faultGRPCWrongStatusUnknownTask] = func(e *faultEnv) string {
		c := grpcClient(e, e.node(Options{}))
		_, err := c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "nope"})
		if ce, ok := client.AsError(err); ok && ce.Kind == a2a.ErrTaskNotFound && ce.Status != "NOT_FOUND" {
			return "TaskNotFoundError as gRPC " + ce.Status
		}
		return ""
	}
	faultCases[faultAuthListUnauthenticated] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: "t0ken"})
		status, _, body := rawHTTP(e.t, "GET", n.srv.URL+RESTPath+"/tasks", "", "", map[string]string{"A2A-Version": "1.0"})
		if status == 200 {
			return "ListTasks served without credentials: " + truncate(string(body), 80)
		}
		return ""
	}
	faultCases[faultAuthCancelUnauthenticated] = func(e *faultEnv) string {
		n := e.node(Options{RequireAuth: "t0ken"})
		status, _, body := rawHTTP(e.t, "POST", n.srv.URL+RESTPath+"/tasks/nobody-issued:cancel", "application/json", "{}", map[string]string{"A2A-Version": "1.0"})
		if status != 401 {
			return fmt.Sprintf("CancelTask processed without credentials: HTTP %d %s", status, truncate(string(body), 80))
		}
		return ""
	}
}

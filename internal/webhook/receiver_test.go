package webhook

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/recorder"
)

func TestReceiverRecordsDecodesAndRedacts(t *testing.T) {
	rec := recorder.New(recorder.WithSecrets("push-secret-123"))
	r, err := Start("", "", rec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tok := NewToken()
	got := make(chan Delivery, 4)
	r.OnDelivery(tok, func(d Delivery) { got <- d })

	post := func(url, body string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer push-secret-123")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(r.URL(tok), `{"statusUpdate":{"taskId":"t1","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}`); code != 200 {
		t.Fatalf("status %d", code)
	}
	d := <-got
	if s, ok := d.Resp.State(); !ok || s != a2a.TaskStateCompleted || d.Resp.TaskID() != "t1" {
		t.Fatalf("decoded %+v (%v)", d.Resp, d.DecodeErr)
	}
	if d.Header.Get("Authorization") != "Bearer push-secret-123" {
		t.Fatal("the spec must see the credentials the agent sent, to check them")
	}
	if code := post(r.URL(tok), "not json"); code != 200 {
		t.Fatalf("garbage answered %d (the receiver acknowledges and records; the spec judges)", code)
	}
	if d := <-got; d.DecodeErr == nil {
		t.Fatal("garbage decoded")
	}
	if code := post(r.URL(tok), strings.Repeat("x", MaxBody+10)); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized delivery answered %d", code)
	}
	if code := post(r.Base()+"/elsewhere", "{}"); code != 404 {
		t.Fatalf("unknown path answered %d", code)
	}
	all := rec.All()
	if len(all) != 4 {
		t.Fatalf("%d exchanges recorded, want 4", len(all))
	}
	for _, ex := range all {
		if ex.Direction != "in" {
			t.Errorf("direction %q", ex.Direction)
		}
		for _, v := range ex.ReqHeader["Authorization"] {
			if strings.Contains(v, "push-secret-123") {
				t.Error("credential reached the transcript")
			}
		}
		if bytes.Contains([]byte(ex.ReqBody), []byte("push-secret-123")) {
			t.Error("credential in a recorded body")
		}
	}
	if len(r.Deliveries(tok)) != 2 {
		t.Fatalf("%d deliveries kept", len(r.Deliveries(tok)))
	}
}

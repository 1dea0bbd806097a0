package kernel_test

import (
	"encoding/json"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"

	"github.com/kernelscope/kernelscope/kernel"
)

// TestMalformedContentGetsErrorReply sends correctly signed requests whose content
// lacks a field, has one of the wrong type or is not an object: each gets an error
// reply naming the field, and the kernel keeps serving.
func TestMalformedContentGetsErrorReply(t *testing.T) {
	c := startKernel(t)
	cases := []struct {
		msgType string
		content any
		want    []string // in evalue
	}{
		{"execute_request", map[string]any{"silent": false}, []string{`"code"`, "missing"}},
		{"execute_request", map[string]any{"code": 5}, []string{`"code"`, "number", "string"}},
		{"execute_request", map[string]any{"code": nil}, []string{`"code"`, "null"}},
		{"execute_request", map[string]any{"code": "x", "silent": "yes"}, []string{`"silent"`, "boolean"}},
		{"execute_request", map[string]any{"code": "x", "store_history": 1}, []string{`"store_history"`, "boolean"}},
		{"execute_request", []any{"not", "an", "object"}, []string{"content", "not a JSON object"}},
		{"complete_request", map[string]any{"code": "x"}, []string{`"cursor_pos"`, "missing"}},
		{"complete_request", map[string]any{"code": "x", "cursor_pos": "end"}, []string{`"cursor_pos"`, "integer"}},
		{"inspect_request", map[string]any{"cursor_pos": 1}, []string{`"code"`, "missing"}},
		{"is_complete_request", map[string]any{"code": []int{1}}, []string{`"code"`, "array"}},
		{"history_request", map[string]any{"hist_access_type": 3}, []string{`"hist_access_type"`, "number"}},
		{"history_request", "tail", []string{"content", "not a JSON object"}},
	}
	for _, tc := range cases {
		id := sendRaw(t, c, c.shell, tc.msgType, tc.content)
		r := c.reply(c.shellCh, id)
		want := strings.TrimSuffix(tc.msgType, "_request") + "_reply"
		if r.Header.MsgType != want {
			t.Errorf("%s %v: reply %s, want %s", tc.msgType, tc.content, r.Header.MsgType, want)
			continue
		}
		rep := decode[map[string]any](t, r)
		ev, _ := rep["evalue"].(string)
		if rep["status"] != "error" || rep["ename"] != "BadRequest" {
			t.Errorf("%s %v: reply %v", tc.msgType, tc.content, rep)
		}
		for _, w := range tc.want {
			if !strings.Contains(ev, w) {
				t.Errorf("%s %v: evalue %q lacks %q", tc.msgType, tc.content, ev, w)
			}
		}
		if tc.msgType == "execute_request" {
			if got := names(c.untilIdle(id)); got != "status:busy error status:idle" {
				t.Errorf("%s %v: iopub %s", tc.msgType, tc.content, got)
			}
		}
	}
	// Malformed content on control is answered too.
	r := decode[map[string]any](t, c.reply(c.controlCh, sendRaw(t, c, c.control, "shutdown_request", []any{})))
	if r["status"] != "error" {
		t.Errorf("shutdown_request with array content: %v", r)
	}
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("still here")))); r.Status != "ok" {
		t.Errorf("after malformed requests: %+v", r)
	}
}

// sendRaw signs and sends content as it marshals, object or not (kernel.Encode only sends objects).
func sendRaw(t *testing.T, c *testClient, s zmq4.Socket, msgType string, content any) string {
	t.Helper()
	body, err := json.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.NewString()
	hdr, _ := json.Marshal(kernel.NewHeader(msgType, c.session, id, time.Now()))
	par, meta := []byte("{}"), []byte("{}")
	frames := [][]byte{[]byte(kernel.Delimiter), c.signer.Sign(hdr, par, meta, body), hdr, par, meta, body}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestShutdownAnswersRunningCell: the cell running when shutdown_request arrives gets
// its execute_reply (an error saying the kernel shut down) before the kernel exits, and
// a cell queued behind it is aborted.
func TestShutdownAnswersRunningCell(t *testing.T) {
	c := startKernel(t)
	id := runLong(t, c)
	queued := c.send(c.shell, "execute_request", execute("queued"))
	c.reply(c.controlCh, c.send(c.control, "shutdown_request", map[string]any{"restart": false}))
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id))
	if r.Status != "error" || r.Ename != "KernelShutdown" || !strings.Contains(r.Evalue, "shut down") {
		t.Errorf("running cell's reply %+v", r)
	}
	if q := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, queued)); q.Status != "aborted" {
		t.Errorf("queued cell's reply %+v", q)
	}
	select {
	case err := <-c.done:
		c.done <- err
	case <-time.After(wait):
		t.Fatal("Run did not return after shutdown_request")
	}
}

// heapHeld is the heap memory the process holds from the OS (not yet returned).
func heapHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	var n uint64
	for _, x := range s {
		n += x.Value.Uint64()
	}
	return n
}

// TestMemoryReturnedAfterLargeCell: after a cell that allocated 512 MB, the idle
// kernel has given the memory back to the operating system (Go alone would keep it
// mapped until its scavenger gets round to it, minutes later).
func TestMemoryReturnedAfterLargeCell(t *testing.T) {
	c := startKernel(t)
	id := c.send(c.shell, "execute_request", execute("alloc 512"))
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id)); r.Status != "ok" {
		t.Fatalf("alloc cell %+v", r)
	}
	c.untilIdle(id) // the memory is released before the idle status
	if held := heapHeld(); held > 128<<20 {
		t.Errorf("idle after a 512 MB cell: the heap still holds %d MB", held>>20)
	}
}

package kernel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"

	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/kernel/internal/fakeengine"
)

// wait is a safety net: how long a test waits for what must come before it fails.
// No test waits for it to pass, so it can be generous.
const wait = time.Minute

// testClient talks to an in-process kernel over real ZeroMQ sockets.
type testClient struct {
	t       *testing.T
	signer  kernel.Signer
	session string
	conn    kernel.ConnectionInfo

	shell, control, iopub, hb   zmq4.Socket
	shellCh, controlCh, iopubCh chan *kernel.Message

	done chan error // Run's result
}

// freePorts returns n distinct free TCP ports on 127.0.0.1.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startKernel runs kernel.Run with the fake engine and connects a client to it.
func startKernel(t *testing.T, opts ...kernel.Option) *testClient {
	t.Helper()
	p := freePorts(t, 5)
	ci := kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
		IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], Key: uuid.NewString(), SignatureScheme: "hmac-sha256"}
	b, _ := json.Marshal(ci)
	file := filepath.Join(t.TempDir(), "kernel.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := &testClient{t: t, conn: ci, session: uuid.NewString(), done: make(chan error, 1),
		shellCh: make(chan *kernel.Message, 100), controlCh: make(chan *kernel.Message, 100),
		iopubCh: make(chan *kernel.Message, 1000)}
	c.signer, _ = kernel.NewSigner("hmac-sha256", ci.Key)
	go func() {
		c.done <- kernel.Run(ctx, file, fakeengine.Engine{}, kernel.Info{Banner: "test", Version: "9.9"}, log, opts...)
	}()

	cctx, ccancel := context.WithCancel(context.Background())
	c.shell = zmq4.NewDealer(cctx, zmq4.WithID(zmq4.SocketIdentity("shell-"+c.session)))
	c.control = zmq4.NewDealer(cctx, zmq4.WithID(zmq4.SocketIdentity("control-"+c.session)))
	c.iopub = zmq4.NewSub(cctx)
	c.hb = zmq4.NewReq(cctx)
	t.Cleanup(func() {
		cancel()
		select {
		case <-c.done:
		case <-time.After(wait):
			t.Error("Run did not return after cancel")
		}
		ccancel()
		for _, s := range []zmq4.Socket{c.shell, c.control, c.iopub, c.hb} {
			s.Close()
		}
	})
	for port, s := range map[int]zmq4.Socket{ci.ShellPort: c.shell, ci.ControlPort: c.control, ci.IOPubPort: c.iopub, ci.HBPort: c.hb} {
		if err := s.Dial(fmt.Sprintf("tcp://127.0.0.1:%d", port)); err != nil {
			t.Fatalf("dial %d: %v", port, err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.shell, c.shellCh)
	go c.pump(c.control, c.controlCh)
	go c.pump(c.iopub, c.iopubCh)
	// Wait until the subscription is live: ask kernel_info until a status arrives on iopub.
	deadline := time.Now().Add(wait)
	for {
		id := c.send(c.shell, "kernel_info_request", map[string]any{})
		c.reply(c.shellCh, id)
		select {
		case <-c.iopubCh:
			c.drainIOPub()
			return c
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("iopub never delivered a status message")
		}
	}
}

// testWriter sends log lines to t.Log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// pump decodes messages from s into ch until the socket closes.
func (c *testClient) pump(s zmq4.Socket, ch chan<- *kernel.Message) {
	for {
		zm, err := s.Recv()
		if err != nil {
			return
		}
		m, err := kernel.Decode(zm.Frames, c.signer)
		if err != nil {
			c.t.Errorf("kernel sent an undecodable message: %v", err)
			return
		}
		ch <- m
	}
}

// sendWith sends msgType signed by signer on s and returns its msg_id.
func (c *testClient) sendWith(s zmq4.Socket, signer kernel.Signer, msgType string, content any) string {
	c.t.Helper()
	b, err := json.Marshal(content)
	if err != nil {
		c.t.Fatal(err)
	}
	id := uuid.NewString()
	frames, err := kernel.Encode(&kernel.Message{Header: kernel.NewHeader(msgType, c.session, id, time.Now()), Content: b}, signer)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.t.Fatal(err)
	}
	return id
}

func (c *testClient) send(s zmq4.Socket, msgType string, content any) string {
	c.t.Helper()
	return c.sendWith(s, c.signer, msgType, content)
}

// reply waits for the reply to id on ch.
func (c *testClient) reply(ch <-chan *kernel.Message, id string) *kernel.Message {
	c.t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case m := <-ch:
			if m.Parent.MsgID == id {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no reply to %s", id)
		}
	}
}

// untilIdle returns the iopub messages for id up to its idle status.
func (c *testClient) untilIdle(id string) []*kernel.Message {
	c.t.Helper()
	var out []*kernel.Message
	timeout := time.After(wait)
	for {
		select {
		case m := <-c.iopubCh:
			if m.Parent.MsgID != id {
				continue
			}
			out = append(out, m)
			if m.Header.MsgType == "status" && strings.Contains(string(m.Content), `"idle"`) {
				return out
			}
		case <-timeout:
			c.t.Fatalf("no idle for %s; got %s", id, names(out))
		}
	}
}

func (c *testClient) drainIOPub() {
	for {
		select {
		case <-c.iopubCh:
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

// names lists the message types, with the state of status messages.
func names(ms []*kernel.Message) string {
	var s []string
	for _, m := range ms {
		n := m.Header.MsgType
		if n == "status" {
			var st kernel.StatusContent
			json.Unmarshal(m.Content, &st)
			n += ":" + st.ExecutionState
		}
		s = append(s, n)
	}
	return strings.Join(s, " ")
}

func execute(code string) map[string]any {
	return map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false}
}

func decode[T any](t *testing.T, m *kernel.Message) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(m.Content, &v); err != nil {
		t.Fatalf("%s content %s: %v", m.Header.MsgType, m.Content, err)
	}
	return v
}

func TestKernelInfo(t *testing.T) {
	c := startKernel(t)
	for _, s := range []struct {
		sock zmq4.Socket
		ch   chan *kernel.Message
	}{{c.shell, c.shellCh}, {c.control, c.controlCh}} {
		id := c.send(s.sock, "kernel_info_request", map[string]any{})
		r := c.reply(s.ch, id)
		if r.Header.MsgType != "kernel_info_reply" {
			t.Fatalf("reply type %s", r.Header.MsgType)
		}
		ki := decode[kernel.KernelInfoReply](t, r)
		want := kernel.LanguageInfo{Name: "cuda", Version: "9.9", Mimetype: "text/x-cuda-src", FileExtension: ".cu", PygmentsLexer: "cuda", CodemirrorMode: "text/x-c++src"}
		if ki.Status != "ok" || ki.ProtocolVersion != "5.3" || ki.Implementation != "kernelscope" || ki.ImplementationVersion != "9.9" || ki.LanguageInfo != want || ki.Banner != "test" {
			t.Errorf("kernel_info %+v", ki)
		}
		if got := names(c.untilIdle(id)); got != "status:busy status:idle" {
			t.Errorf("iopub %s", got)
		}
	}
}

func TestExecuteOrderAndCount(t *testing.T) {
	c := startKernel(t)
	for want := 1; want <= 2; want++ {
		id := c.send(c.shell, "execute_request", execute("display"))
		r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id))
		if r.Status != "ok" || r.ExecutionCount != want {
			t.Errorf("reply %+v, want ok count %d", r, want)
		}
		ms := c.untilIdle(id)
		if got := names(ms); got != "status:busy execute_input display_data status:idle" {
			t.Fatalf("iopub order %s", got)
		}
		in := decode[kernel.ExecuteInput](t, ms[1])
		d := decode[kernel.DisplayData](t, ms[2])
		if in.Code != "display" || in.ExecutionCount != want || d.Data["text/html"] == nil {
			t.Errorf("execute_input %+v display %+v", in, d)
		}
	}
	// Updatable displays carry transient.display_id.
	id := c.send(c.shell, "execute_request", execute("progress"))
	ms := c.untilIdle(id)
	if got := names(ms); got != "status:busy execute_input display_data update_display_data update_display_data status:idle" {
		t.Fatalf("progress iopub %s", got)
	}
	if d := decode[kernel.DisplayData](t, ms[4]); d.Transient.DisplayID != "progress-3" || d.Data["text/plain"] != "100%" {
		t.Errorf("update %+v", d)
	}
}

func TestStreams(t *testing.T) {
	c := startKernel(t)
	for code, want := range map[string]kernel.StreamContent{"stderr": {Name: "stderr", Text: "to stderr\n"}, "echo me": {Name: "stdout", Text: "echo me"}} {
		id := c.send(c.shell, "execute_request", execute(code))
		ms := c.untilIdle(id)
		if got := names(ms); got != "status:busy execute_input stream status:idle" {
			t.Fatalf("%q: iopub %s", code, got)
		}
		if got := decode[kernel.StreamContent](t, ms[2]); got != want {
			t.Errorf("%q: stream %+v, want %+v", code, got, want)
		}
	}
}

func TestSilentAndNoHistory(t *testing.T) {
	c := startKernel(t)
	c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("one")))
	silent := execute("display")
	silent["silent"] = true
	id := c.send(c.shell, "execute_request", silent)
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id))
	if got := names(c.untilIdle(id)); got != "status:busy status:idle" {
		t.Errorf("silent cell published %s", got)
	}
	if r.Status != "ok" || r.ExecutionCount != 1 {
		t.Errorf("silent reply %+v", r)
	}
	nostore := execute("two")
	nostore["store_history"] = false
	r = decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", nostore)))
	if r.ExecutionCount != 1 || r.UserExpressions == nil || len(r.UserExpressions) != 0 {
		t.Errorf("store_history=false reply %+v", r)
	}
	// A silent failure publishes nothing and aborts nothing.
	silent["code"] = "FAIL"
	id = c.send(c.shell, "execute_request", silent)
	next := c.send(c.shell, "execute_request", execute("three"))
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id)); r.Status != "error" {
		t.Errorf("silent FAIL %+v", r)
	}
	if got := names(c.untilIdle(id)); got != "status:busy status:idle" {
		t.Errorf("silent failure published %s", got)
	}
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, next)); r.Status != "ok" || r.ExecutionCount != 2 {
		t.Errorf("cell after silent failure %+v", r)
	}
	h := decode[kernel.HistoryReply](t, c.reply(c.shellCh, c.send(c.shell, "history_request", map[string]any{"hist_access_type": "tail", "n": 10})))
	if len(h.History) != 2 || h.History[0][2] != "one" || h.History[1][2] != "three" {
		t.Errorf("history %v", h.History)
	}
}

func TestErrorAndStopOnError(t *testing.T) {
	// The requests queued behind the failing cell are sent at once; a generous settle
	// lets them reach the kernel's queue however loaded the machine is.
	c := startKernel(t, kernel.AbortSettle(2*time.Second))
	bad := c.send(c.shell, "execute_request", execute("ok\nFAIL here"))
	queued := []string{c.send(c.shell, "execute_request", execute("a")), c.send(c.shell, "execute_request", execute("b"))}
	info := c.send(c.shell, "kernel_info_request", map[string]any{})
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, bad))
	if r.Status != "error" || r.Ename != "CellError" || !strings.Contains(r.Evalue, "line 2") || r.ExecutionCount != 1 {
		t.Errorf("error reply %+v", r)
	}
	ms := c.untilIdle(bad)
	if got := names(ms); got != "status:busy execute_input error status:idle" {
		t.Errorf("iopub %s", got)
	}
	e := decode[kernel.ErrorContent](t, ms[2])
	if e.Ename != "CellError" || len(e.Traceback) != 2 || !strings.Contains(e.Traceback[1], "FAIL here") {
		t.Errorf("error %+v", e)
	}
	for _, q := range queued {
		if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, q)); r.Status != "aborted" || r.ExecutionCount != 1 {
			t.Errorf("queued reply %+v, want aborted", r)
		}
		if got := names(c.untilIdle(q)); got != "status:busy status:idle" {
			t.Errorf("aborted request published %s", got)
		}
	}
	if r := c.reply(c.shellCh, info); r.Header.MsgType != "kernel_info_reply" {
		t.Errorf("queued kernel_info got %s", r.Header.MsgType)
	}
	// Requests sent after the error reply run.
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("c")))); r.Status != "ok" || r.ExecutionCount != 2 {
		t.Errorf("after abort %+v", r)
	}
	// stop_on_error=false runs the queue.
	noStop := execute("FAIL")
	noStop["stop_on_error"] = false
	bad = c.send(c.shell, "execute_request", noStop)
	next := c.send(c.shell, "execute_request", execute("d"))
	c.reply(c.shellCh, bad)
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, next)); r.Status != "ok" {
		t.Errorf("stop_on_error=false: queued %+v", r)
	}
}

func TestPanickingEngineIsAnError(t *testing.T) {
	c := startKernel(t)
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("panic"))))
	if r.Status != "error" || r.Ename != "InternalError" || !strings.Contains(r.Evalue, "fake engine panic") {
		t.Errorf("reply %+v", r)
	}
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("x")))); r.Status != "ok" {
		t.Errorf("after panic %+v", r)
	}
	id := c.send(c.shell, "is_complete_request", map[string]any{"code": "panic"})
	if r := c.reply(c.shellCh, id); r.Header.MsgType != "is_complete_reply" || !strings.Contains(string(r.Content), "InternalError") {
		t.Errorf("panicking IsComplete answered %s %s", r.Header.MsgType, r.Content)
	}
	if got := names(c.untilIdle(id)); got != "status:busy status:idle" {
		t.Errorf("iopub around a panicking handler %s", got)
	}
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("y")))); r.Status != "ok" {
		t.Errorf("after handler panic %+v", r)
	}
}

func TestCompleteInspectIsComplete(t *testing.T) {
	c := startKernel(t)
	code := "/* é✓ */ __sync"
	cr := decode[kernel.CompleteReply](t, c.reply(c.shellCh, c.send(c.shell, "complete_request", map[string]any{"code": code, "cursor_pos": 15})))
	if len(cr.Matches) != 1 || cr.Matches[0] != "__syncthreads" || cr.CursorStart != 9 || cr.CursorEnd != 15 {
		t.Errorf("complete %+v", cr)
	}
	// A cursor past the end is clamped, not a crash.
	cr = decode[kernel.CompleteReply](t, c.reply(c.shellCh, c.send(c.shell, "complete_request", map[string]any{"code": "x", "cursor_pos": 1000})))
	if cr.Status != "ok" || cr.Matches == nil {
		t.Errorf("complete past end %+v", cr)
	}
	ir := decode[kernel.InspectReply](t, c.reply(c.shellCh, c.send(c.shell, "inspect_request", map[string]any{"code": "é threadIdx.x", "cursor_pos": 4, "detail_level": 0})))
	if !ir.Found || !strings.Contains(fmt.Sprint(ir.Data["text/plain"]), "threadIdx") || ir.Data["text/html"] == nil {
		t.Errorf("inspect %+v", ir)
	}
	for code, want := range map[string]string{"f() {": "incomplete", "f() { }": "complete", "}": "invalid"} {
		r := decode[kernel.IsCompleteReply](t, c.reply(c.shellCh, c.send(c.shell, "is_complete_request", map[string]any{"code": code})))
		if r.Status != want || (want == "incomplete") != (r.Indent != nil) {
			t.Errorf("is_complete(%q) = %+v", code, r)
		}
	}
	// Wrongly typed content is answered with an error, not a crash.
	r := c.reply(c.shellCh, c.send(c.shell, "complete_request", map[string]any{"code": 7}))
	if !strings.Contains(string(r.Content), `"status":"error"`) {
		t.Errorf("bad complete_request answered %s", r.Content)
	}
	r = c.reply(c.shellCh, c.send(c.shell, "execute_request", map[string]any{"code": []int{1}}))
	if !strings.Contains(string(r.Content), `"status":"error"`) || !strings.Contains(string(r.Content), `"execution_count":0`) {
		t.Errorf("bad execute_request answered %s", r.Content)
	}
}

func TestHistoryRequests(t *testing.T) {
	c := startKernel(t)
	for _, code := range []string{"%arch sm_90", "kernel", "%arch sm_90", "%grid 4"} {
		c.reply(c.shellCh, c.send(c.shell, "execute_request", execute(code)))
	}
	ask := func(content map[string]any) [][3]any {
		return decode[kernel.HistoryReply](t, c.reply(c.shellCh, c.send(c.shell, "history_request", content))).History
	}
	if h := ask(map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true}); fmt.Sprint(h) != "[[1 3 %arch sm_90] [1 4 %grid 4]]" {
		t.Errorf("tail %v", h)
	}
	if h := ask(map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4}); fmt.Sprint(h) != "[[1 2 kernel] [1 3 %arch sm_90]]" {
		t.Errorf("range %v", h)
	}
	if h := ask(map[string]any{"hist_access_type": "search", "pattern": "%*", "unique": true}); fmt.Sprint(h) != "[[1 3 %arch sm_90] [1 4 %grid 4]]" {
		t.Errorf("search unique %v", h)
	}
	if h := ask(map[string]any{"hist_access_type": "search", "pattern": "%a*", "n": 1}); fmt.Sprint(h) != "[[1 3 %arch sm_90]]" {
		t.Errorf("search n=1 %v", h)
	}
	if h := ask(map[string]any{"hist_access_type": "tail", "n": 1, "output": true}); fmt.Sprint(h) != "[[1 4 [%grid 4 <nil>]]]" {
		t.Errorf("tail with output %v", h)
	}
}

func TestComms(t *testing.T) {
	c := startKernel(t)
	ci := decode[kernel.CommInfoReply](t, c.reply(c.shellCh, c.send(c.shell, "comm_info_request", map[string]any{})))
	if ci.Status != "ok" || ci.Comms == nil || len(ci.Comms) != 0 {
		t.Errorf("comm_info %+v", ci)
	}
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "c-1", "target_name": "nope", "data": map[string]any{}})
	ms := c.untilIdle(id)
	if got := names(ms); got != "status:busy comm_close status:idle" {
		t.Fatalf("comm_open answered %s", got)
	}
	if cc := decode[kernel.CommClose](t, ms[1]); cc.CommID != "c-1" {
		t.Errorf("comm_close %+v", cc)
	}
}

// runLong starts a long cell and waits until it runs: the kernel publishes
// execute_input once an interrupt would reach the cell.
func runLong(t *testing.T, c *testClient) string {
	id := c.send(c.shell, "execute_request", execute("sleep 30"))
	timeout := time.After(wait)
	for {
		select {
		case m := <-c.iopubCh:
			if m.Parent.MsgID == id && m.Header.MsgType == "execute_input" {
				return id
			}
		case <-timeout:
			t.Fatal("long cell never started")
		}
	}
}

// checkInterrupted: the long cell (30 s) answers KeyboardInterrupt; had the interrupt
// not reached it, it would answer ok after 30 s.
func checkInterrupted(t *testing.T, c *testClient, id string) {
	t.Helper()
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, id))
	if r.Status != "error" || r.Ename != "KeyboardInterrupt" || r.Evalue != "interrupted" {
		t.Errorf("interrupted reply %+v", r)
	}
	if r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("after")))); r.Status != "ok" {
		t.Errorf("cell after interrupt %+v", r)
	}
}

func TestInterruptAndControlWhileRunning(t *testing.T) {
	c := startKernel(t)
	id := runLong(t, c)
	// Control and heartbeat are served while the cell runs.
	ki := c.reply(c.controlCh, c.send(c.control, "kernel_info_request", map[string]any{}))
	if ki.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("control reply %s", ki.Header.MsgType)
	}
	if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := c.hb.Recv(); err != nil || string(m.Bytes()) != "ping" {
		t.Errorf("heartbeat echo %q %v", m.Bytes(), err)
	}
	ir := c.reply(c.controlCh, c.send(c.control, "interrupt_request", map[string]any{}))
	if ir.Header.MsgType != "interrupt_reply" || !strings.Contains(string(ir.Content), `"ok"`) {
		t.Errorf("interrupt reply %s %s", ir.Header.MsgType, ir.Content)
	}
	checkInterrupted(t, c, id)
}

func TestSIGINTInterrupts(t *testing.T) {
	c := startKernel(t)
	id := runLong(t, c)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	checkInterrupted(t, c, id)
}

func TestBadSignatureAndGarbageIgnored(t *testing.T) {
	c := startKernel(t)
	wrong, _ := kernel.NewSigner("hmac-sha256", "wrong key")
	bad := map[string]bool{
		c.sendWith(c.shell, wrong, "execute_request", execute("display")):                  true,
		c.sendWith(c.shell, wrong, "kernel_info_request", map[string]any{}):                true,
		c.sendWith(c.control, wrong, "shutdown_request", map[string]any{"restart": false}): true,
		c.sendWith(c.shell, kernel.Signer{}, "kernel_info_request", map[string]any{}):      true,
	}
	garbage := [][][]byte{{}, {[]byte("x")}, {[]byte(kernel.Delimiter)}, {[]byte(kernel.Delimiter), []byte("sig"), []byte("{"), nil, nil, nil}}
	for _, g := range garbage {
		if len(g) == 0 {
			g = [][]byte{nil}
		}
		if err := c.shell.SendMulti(zmq4.NewMsgFrom(g...)); err != nil {
			t.Fatal(err)
		}
	}
	// Each socket is served in order: whatever the kernel did with the bad messages
	// comes before its answers to these good ones (a reply on shell and control, idle on iopub).
	x := c.send(c.shell, "execute_request", execute("x"))
	info := c.send(c.control, "kernel_info_request", map[string]any{})
	var r kernel.ExecuteReply
	gotReply, gotInfo, gotIdle := false, false, false
	timeout := time.After(wait)
	for !gotReply || !gotInfo || !gotIdle {
		select {
		case m := <-c.shellCh:
			if bad[m.Parent.MsgID] {
				t.Errorf("kernel answered a wrongly signed %s", m.Header.MsgType)
			}
			if m.Parent.MsgID == x {
				r, gotReply = decode[kernel.ExecuteReply](t, m), true
			}
		case m := <-c.controlCh:
			if m.Parent.MsgID != info {
				t.Errorf("kernel answered on control: %s", m.Header.MsgType)
			}
			gotInfo = true
		case m := <-c.iopubCh:
			if bad[m.Parent.MsgID] {
				t.Errorf("kernel published %s for a wrongly signed message", m.Header.MsgType)
			}
			if m.Parent.MsgID == x && m.Header.MsgType == "status" && strings.Contains(string(m.Content), `"idle"`) {
				gotIdle = true
			}
		case <-timeout:
			t.Fatalf("no answer to the good requests after the bad ones (reply %v, control %v, idle %v)", gotReply, gotInfo, gotIdle)
		}
	}
	if r.Status != "ok" || r.ExecutionCount != 1 {
		t.Errorf("after bad messages %+v (count 1: the wrongly signed cell must not have run)", r)
	}
}

func TestShutdown(t *testing.T) {
	for _, restart := range []bool{false, true} {
		c := startKernel(t, kernel.IOPubLinger(time.Second)) // the idle after shutdown_reply must go out
		sock, ch := c.control, c.controlCh
		if restart { // old clients send shutdown_request on shell
			sock, ch = c.shell, c.shellCh
		}
		id := c.send(sock, "shutdown_request", map[string]any{"restart": restart})
		r := decode[kernel.ShutdownContent](t, c.reply(ch, id))
		if r.Status != "ok" || r.Restart != restart {
			t.Errorf("shutdown reply %+v", r)
		}
		if got := names(c.untilIdle(id)); got != "status:busy shutdown_reply status:idle" {
			t.Errorf("shutdown iopub %s", got)
		}
		select {
		case err := <-c.done:
			if err != nil {
				t.Errorf("Run returned %v after shutdown", err)
			}
			c.done <- err // for the cleanup
		case <-time.After(wait):
			t.Fatal("Run did not return after shutdown_request")
		}
	}
}

func TestShutdownWhileCellRuns(t *testing.T) {
	c := startKernel(t)
	runLong(t, c)
	id := c.send(c.control, "shutdown_request", map[string]any{"restart": false})
	c.reply(c.controlCh, id)
	select {
	case err := <-c.done:
		c.done <- err
	case <-time.After(wait):
		t.Fatal("Run did not return with a cell running")
	}
}

func TestRunErrors(t *testing.T) {
	ctx := context.Background()
	if err := kernel.Run(ctx, filepath.Join(t.TempDir(), "missing.json"), fakeengine.Engine{}, kernel.Info{}, nil); err == nil {
		t.Error("missing connection file accepted")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"ip":"127.0.0.1","transport":"tcp","shell_port":0}`), 0o600)
	if err := kernel.Run(ctx, bad, fakeengine.Engine{}, kernel.Info{}, nil); err == nil {
		t.Error("port 0 accepted")
	}
	// A port already in use is an error, not a hang.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := freePorts(t, 4)
	ci := kernel.ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: l.Addr().(*net.TCPAddr).Port,
		ControlPort: p[0], IOPubPort: p[1], StdinPort: p[2], HBPort: p[3]}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := kernel.Serve(ctx, ci, fakeengine.Engine{}, kernel.Info{}, nil); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("busy port: %v", err)
	}
}

// rawGreeting is a ZMTP 3.0 NULL greeting.
func rawGreeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	return g
}

// TestHostileZMTPPeers sends what crashes a bare zmq4 listener (a frame header claiming
// 2^46 bytes: fatal out-of-memory; a READY whose property overruns: index out of range)
// and checks that the kernel drops those connections and keeps serving.
func TestHostileZMTPPeers(t *testing.T) {
	c := startKernel(t)
	readyDealer := append([]byte{0x04, 28}, "\x05READY\x0bSocket-Type\x00\x00\x00\x06DEALER"...)
	hugeFrame := []byte{0x02, 0, 0, 0x40, 0, 0, 0, 0, 0}
	attacks := map[string][]byte{
		"huge frame":        append(append(rawGreeting(), readyDealer...), hugeFrame...),
		"overrunning READY": append(rawGreeting(), 0x04, 8, 5, 'R', 'E', 'A', 'D', 'Y', 2, 'a'),
		"not ZMTP":          []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
	}
	for name, bytes := range attacks {
		for _, port := range []int{c.conn.ShellPort, c.conn.ControlPort, c.conn.IOPubPort, c.conn.HBPort, c.conn.StdinPort} {
			conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Write(bytes); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			// The kernel must hang up on us.
			conn.SetReadDeadline(time.Now().Add(wait))
			buf := make([]byte, 4096)
			for {
				if _, err := conn.Read(buf); err != nil {
					if ne, ok := err.(net.Error); ok && ne.Timeout() {
						t.Errorf("%s on port %d (shell %d control %d iopub %d hb %d stdin %d): connection not closed", name, port, c.conn.ShellPort, c.conn.ControlPort, c.conn.IOPubPort, c.conn.HBPort, c.conn.StdinPort)
					}
					break
				}
			}
			conn.Close()
		}
	}
	r := decode[kernel.ExecuteReply](t, c.reply(c.shellCh, c.send(c.shell, "execute_request", execute("still here"))))
	if r.Status != "ok" {
		t.Errorf("after hostile peers: %+v", r)
	}
	if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := c.hb.Recv(); err != nil || string(m.Bytes()) != "ping" {
		t.Errorf("heartbeat after hostile peers: %q %v", m.Bytes(), err)
	}
}

func TestIPCTransport(t *testing.T) {
	dir, err := os.MkdirTemp("", "ks") // short: unix socket paths are limited to 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	base := filepath.Join(dir, "k")
	ci := kernel.ConnectionInfo{Transport: "ipc", IP: base, ShellPort: 1, IOPubPort: 2, StdinPort: 3, ControlPort: 4, HBPort: 5, Key: "k", SignatureScheme: "hmac-sha256"}
	// A stale socket file from a dead kernel does not stop the bind.
	stale, err := net.Listen("unix", base+"-1")
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- kernel.Serve(ctx, ci, fakeengine.Engine{}, kernel.Info{}, nil) }()
	signer, _ := kernel.NewSigner("hmac-sha256", "k")
	c := &testClient{t: t, signer: signer, session: "s", shellCh: make(chan *kernel.Message, 10), controlCh: make(chan *kernel.Message, 10)}
	c.control = zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("ctl")))
	defer c.control.Close()
	if err := c.control.Dial("ipc://" + base + "-4"); err != nil {
		t.Fatal(err)
	}
	go c.pump(c.control, c.controlCh)
	if r := c.reply(c.controlCh, c.send(c.control, "kernel_info_request", map[string]any{})); r.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("reply %s", r.Header.MsgType)
	}
	c.reply(c.controlCh, c.send(c.control, "shutdown_request", map[string]any{"restart": false}))
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(wait):
		t.Fatal("Serve did not return after shutdown")
	}
	if left, _ := filepath.Glob(base + "-*"); len(left) != 0 {
		t.Errorf("socket files left behind: %v", left)
	}
}

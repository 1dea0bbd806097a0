package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-zeromq/zmq4"
	"github.com/google/uuid"
)

const (
	// shellQueueLen bounds the shell requests read ahead of the running one.
	shellQueueLen = 256
	// abortSettle lets requests in flight reach the queue before a failed cell's reply.
	abortSettle = 50 * time.Millisecond
	// recvRetry is the pause after a receive error, so a failing socket cannot spin.
	recvRetry = 10 * time.Millisecond
	// iopubLinger lets the asynchronous PUB queue flush before the sockets close.
	iopubLinger = 150 * time.Millisecond
	// shutdownGrace is how long a shutdown waits for the interrupted cell to answer.
	shutdownGrace = 3 * time.Second
	// releaseAfter is how many bytes a cell may allocate before the kernel returns the
	// freed memory to the operating system when the cell ends.
	releaseAfter = 64 << 20
)

// Option changes one of the kernel's timing defaults.
type Option func(*server)

// AbortSettle sets how long a failed cell waits, before its reply, for requests already
// sent to reach the queue, where they are aborted (default 50 ms).
func AbortSettle(d time.Duration) Option { return func(s *server) { s.abortSettle = d } }

// IOPubLinger sets how long a shutdown waits for queued IOPub messages to go out
// before the sockets close (default 150 ms).
func IOPubLinger(d time.Duration) Option { return func(s *server) { s.iopubLinger = d } }

// GuardLimits sets the limits the sockets' ZMTP guard enforces (default DefaultLimits()).
func GuardLimits(l Limits) Option { return func(s *server) { s.limits = l } }

// Run reads connectionFile and serves eng on it until a shutdown_request (returning nil;
// a requested restart is logged) or until ctx is done (returning ctx's error).
func Run(ctx context.Context, connectionFile string, eng Engine, info Info, log *slog.Logger, opts ...Option) error {
	ci, err := ReadConnectionFile(connectionFile)
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	return Serve(ctx, ci, eng, info, log, opts...)
}

// server is the state of one running kernel.
type server struct {
	log     *slog.Logger
	eng     Engine
	info    Info
	signer  Signer
	session string

	shell, control, stdin, iopub, hb zmq4.Socket

	queue   chan *Message
	history History

	// count is the execution count; only the shell dispatcher touches it.
	count int

	abortSettle, iopubLinger time.Duration
	limits                   Limits

	mu         sync.Mutex
	cancelCell context.CancelFunc
	stopOnce   sync.Once
	stopped    chan struct{}
	restart    bool
	stopping   bool          // a shutdown was requested: no new cell starts
	cellReply  chan struct{} // closed when the running cell's execute_reply is sent; nil when none runs

	// allocs is the heap allocation total (bytes) when the last cell ended.
	allocs uint64
}

// Serve is Run with the connection information already read.
func Serve(ctx context.Context, ci ConnectionInfo, eng Engine, info Info, log *slog.Logger, opts ...Option) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if eng == nil {
		return errors.New("kernel: nil engine")
	}
	if err := ci.validate(); err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	signer, err := NewSigner(ci.SignatureScheme, ci.Key)
	if err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	if !signer.Enabled() {
		log.Warn("empty key: messages are neither signed nor verified")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	s := &server{
		log:     log,
		eng:     eng,
		info:    info,
		signer:  signer,
		session: uuid.NewString(),
		queue:   make(chan *Message, shellQueueLen),
		stopped: make(chan struct{}),

		abortSettle: abortSettle,
		iopubLinger: iopubLinger,
		limits:      DefaultLimits(),
	}
	for _, o := range opts {
		o(s)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)

	network := "tcp"
	if ci.Transport == "ipc" {
		network = "unix"
	}
	zlog := slog.NewLogLogger(log.With("component", "zmq4").Handler(), slog.LevelWarn)
	s.shell = zmq4.NewRouter(ctx, zmq4.WithLogger(zlog))
	s.control = zmq4.NewRouter(ctx, zmq4.WithLogger(zlog))
	s.stdin = zmq4.NewRouter(ctx, zmq4.WithLogger(zlog))
	s.iopub = zmq4.NewPub(ctx, zmq4.WithLogger(zlog))
	s.hb = zmq4.NewRep(ctx, zmq4.WithLogger(zlog))
	routerPeers := []string{string(zmq4.Dealer), string(zmq4.Req), string(zmq4.Router)}
	socks := []struct {
		name  string
		sock  zmq4.Socket
		port  int
		peers []string
	}{
		{"shell", s.shell, ci.ShellPort, routerPeers}, {"control", s.control, ci.ControlPort, routerPeers},
		{"stdin", s.stdin, ci.StdinPort, routerPeers},
		{"iopub", s.iopub, ci.IOPubPort, []string{string(zmq4.Sub), string(zmq4.XSub)}},
		{"hb", s.hb, ci.HBPort, []string{string(zmq4.Req), string(zmq4.Dealer)}},
	}
	var closeOnce sync.Once
	closeAll := func() {
		closeOnce.Do(func() {
			for _, sk := range socks {
				if err := sk.sock.Close(); err != nil {
					log.Debug("close socket", "socket", sk.name, "err", err)
				}
				if ci.Transport == "ipc" {
					removeSocketFile(ci.ipcPath(sk.port), log)
				}
			}
		})
	}
	defer closeAll()
	for _, sk := range socks {
		scheme, err := registerGuard(network, s.session+"-"+sk.name, sk.peers, s.limits, log)
		if err != nil {
			return fmt.Errorf("kernel: %w", err)
		}
		ep := ci.endpoint(scheme, sk.port)
		if ci.Transport == "ipc" {
			removeSocketFile(ci.ipcPath(sk.port), log) // a stale one from a dead kernel, as libzmq does
		}
		if err := sk.sock.Listen(ep); err != nil {
			return fmt.Errorf("kernel: bind %s on %s: %w", sk.name, ep, err)
		}
	}
	log.Info("kernel listening", "ip", ci.IP, "shell", ci.ShellPort, "control", ci.ControlPort,
		"iopub", ci.IOPubPort, "stdin", ci.StdinPort, "hb", ci.HBPort, "session", s.session)
	s.publishStatus("starting", Header{})

	var wg sync.WaitGroup
	wg.Go(func() { s.readLoop(ctx, "shell", s.shell, func(m *Message) { s.enqueue(ctx, m) }) })
	wg.Go(func() { s.readLoop(ctx, "control", s.control, func(m *Message) { s.handleControl(m) }) })
	wg.Go(func() {
		s.readLoop(ctx, "stdin", s.stdin, func(m *Message) {
			s.log.Debug("ignoring stdin message", "msg_type", m.Header.MsgType)
		})
	})
	wg.Go(func() { s.heartbeat(ctx) })
	wg.Go(func() { s.dispatch(ctx) })
	wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-sigs:
				s.log.Info("SIGINT", "cell_interrupted", s.interrupt())
			}
		}
	})

	var result error
	select {
	case <-ctx.Done():
		result = fmt.Errorf("kernel: %w", ctx.Err())
	case <-s.stopped:
		s.mu.Lock()
		restart := s.restart
		s.mu.Unlock()
		log.Info("kernel shutting down", "restart", restart)
		s.finishCell(cancel)
		time.Sleep(s.iopubLinger)
	}
	s.interrupt()
	cancel()
	closeAll()
	wg.Wait()
	return result
}

// readLoop receives, decodes and verifies messages from sock, handing valid ones to handle.
func (s *server) readLoop(ctx context.Context, name string, sock zmq4.Socket, handle func(*Message)) {
	for {
		zm, err := sock.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Warn("receive failed", "socket", name, "err", err)
			pause(ctx, recvRetry)
			continue
		}
		m, err := Decode(zm.Frames, s.signer)
		if err != nil && errors.Is(err, ErrBadContent) && m != nil {
			// Signed by a holder of the key, so answered: with an error reply.
			s.log.Warn("malformed content in a signed message", "socket", name, "msg_type", m.Header.MsgType, "err", err)
			m.badContent = &BadContentError{MsgType: m.Header.MsgType, Problem: err.Error()}
		} else if err != nil {
			s.log.Warn("dropping invalid message", "socket", name, "frames", len(zm.Frames), "err", err)
			continue
		}
		handle(m)
	}
}

// removeSocketFile removes the unix socket at path, if it is one.
func removeSocketFile(path string, log *slog.Logger) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
		if err := os.Remove(path); err != nil {
			log.Warn("remove ipc socket", "path", path, "err", err)
		}
	}
}

// pause waits d or until ctx is done.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// enqueue adds a shell request to the dispatcher's queue.
func (s *server) enqueue(ctx context.Context, m *Message) {
	select {
	case s.queue <- m:
	case <-ctx.Done():
	}
}

// heartbeat echoes every ping.
func (s *server) heartbeat(ctx context.Context) {
	for {
		m, err := s.hb.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Debug("heartbeat receive failed", "err", err)
			pause(ctx, recvRetry)
			continue
		}
		if err := s.hb.Send(m); err != nil && ctx.Err() == nil {
			s.log.Debug("heartbeat send failed", "err", err)
		}
	}
}

// stop ends Serve after the current request.
func (s *server) stop(restart bool) {
	s.stopOnce.Do(func() {
		s.mu.Lock()
		s.restart = restart
		s.stopping = true
		s.mu.Unlock()
		close(s.stopped)
	})
}

// isStopping reports whether a shutdown was requested.
func (s *server) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

// finishCell interrupts the running cell, if any, and waits for its execute_reply;
// a cell that ignores the interrupt is stopped by cancelling ctx (cancel) after
// shutdownGrace, and answered then.
func (s *server) finishCell(cancel context.CancelFunc) {
	s.mu.Lock()
	replied := s.cellReply
	s.mu.Unlock()
	if replied == nil {
		return
	}
	s.interrupt()
	t := time.NewTimer(shutdownGrace)
	defer t.Stop()
	select {
	case <-replied:
		return
	case <-t.C:
	}
	s.log.Warn("the running cell did not stop within the shutdown grace period; cancelling it")
	cancel()
	t2 := time.NewTimer(time.Second)
	defer t2.Stop()
	select {
	case <-replied:
	case <-t2.C:
	}
}

// interrupt cancels the running cell, if any, and reports whether there was one.
func (s *server) interrupt() bool {
	s.mu.Lock()
	cancel := s.cancelCell
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return cancel != nil
}

// send encodes and sends a message of msgType with content on sock, routed by ids.
func (s *server) send(sock zmq4.Socket, ids [][]byte, parent Header, msgType string, content any) error {
	b, err := json.Marshal(content)
	if err != nil {
		return fmt.Errorf("marshal %s: %w", msgType, err)
	}
	m := &Message{
		Identities: ids,
		Header:     NewHeader(msgType, s.session, uuid.NewString(), time.Now()),
		Parent:     parent,
		Content:    b,
	}
	frames, err := Encode(m, s.signer)
	if err != nil {
		return fmt.Errorf("encode %s: %w", msgType, err)
	}
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		return fmt.Errorf("send %s: %w", msgType, err)
	}
	return nil
}

// reply answers req on sock with msgType.
func (s *server) reply(sock zmq4.Socket, req *Message, msgType string, content any) {
	if err := s.send(sock, req.Identities, req.Header, msgType, content); err != nil {
		s.log.Error("reply failed", "msg_type", msgType, "err", err)
	}
}

// publish sends msgType on iopub with parent.
func (s *server) publish(parent Header, msgType string, content any) error {
	topic := []byte("kernel." + s.session + "." + msgType)
	if err := s.send(s.iopub, [][]byte{topic}, parent, msgType, content); err != nil {
		s.log.Error("publish failed", "msg_type", msgType, "err", err)
		return err
	}
	return nil
}

// publishStatus publishes the execution state with parent.
func (s *server) publishStatus(state string, parent Header) {
	_ = s.publish(parent, "status", StatusContent{ExecutionState: state})
}

// replyType turns "x_request" into "x_reply".
func replyType(msgType string) string {
	return strings.TrimSuffix(msgType, "_request") + "_reply"
}

// badRequest answers a request whose content could not be decoded; requests that
// are not *_request messages (comm messages) have no reply and are only logged.
func (s *server) badRequest(sock zmq4.Socket, req *Message, err error) {
	s.log.Warn("bad request content", "msg_type", req.Header.MsgType, "err", err)
	if !strings.HasSuffix(req.Header.MsgType, "_request") {
		return
	}
	s.reply(sock, req, replyType(req.Header.MsgType), map[string]any{
		"status": "error", "ename": "BadRequest", "evalue": err.Error(), "traceback": []string{"BadRequest: " + err.Error()},
	})
}

// handleControl serves one control request, concurrently with the running cell.
func (s *server) handleControl(m *Message) {
	s.publishStatus("busy", m.Header)
	defer s.publishStatus("idle", m.Header)
	if m.badContent != nil {
		s.badRequest(s.control, m, m.badContent)
		return
	}
	switch m.Header.MsgType {
	case "kernel_info_request":
		s.reply(s.control, m, "kernel_info_reply", s.kernelInfo())
	case "interrupt_request":
		s.log.Info("interrupt_request", "cell_interrupted", s.interrupt())
		s.reply(s.control, m, "interrupt_reply", StatusReply{Status: "ok"})
	case "shutdown_request":
		s.shutdown(s.control, m)
	default:
		s.log.Warn("unsupported control message", "msg_type", m.Header.MsgType)
	}
}

// shutdown answers a shutdown_request and stops the kernel.
func (s *server) shutdown(sock zmq4.Socket, m *Message) {
	var c ShutdownContent
	if err := decodeContent(m, &c); err != nil {
		s.badRequest(sock, m, err)
		return
	}
	rep := ShutdownContent{Status: "ok", Restart: c.Restart}
	s.reply(sock, m, "shutdown_reply", rep)
	_ = s.publish(m.Header, "shutdown_reply", rep)
	s.stop(c.Restart)
}

// kernelInfo builds the kernel_info_reply content.
func (s *server) kernelInfo() KernelInfoReply {
	links := s.info.HelpLinks
	if links == nil {
		links = []HelpLink{}
	}
	return KernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        "kernelscope",
		ImplementationVersion: s.info.Version,
		LanguageInfo: LanguageInfo{
			Name:           "cuda",
			Version:        s.info.Version,
			Mimetype:       "text/x-cuda-src",
			FileExtension:  ".cu",
			PygmentsLexer:  "cuda",
			CodemirrorMode: "text/x-c++src",
		},
		Banner:    s.info.Banner,
		HelpLinks: links,
	}
}

// dispatch serves shell requests one at a time, in order.
func (s *server) dispatch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-s.queue:
			if s.isStopping() && m.Header.MsgType == "execute_request" {
				s.abortExecute(m, "the kernel is shutting down")
				continue
			}
			if n := s.handleShell(ctx, m); n > 0 {
				s.abortQueued(ctx, n)
			}
		}
	}
}

// abortQueued takes the next n queued requests, all received before the failing cell's
// reply was sent, and answers each execute_request with status "aborted"; other
// requests are served normally.
func (s *server) abortQueued(ctx context.Context, n int) {
	for range n {
		var m *Message
		select {
		case <-ctx.Done():
			return
		case m = <-s.queue:
		}
		if m.Header.MsgType != "execute_request" {
			s.handleShell(ctx, m)
			continue
		}
		s.abortExecute(m, "an earlier cell failed")
	}
}

// abortExecute answers a queued execute_request with status "aborted".
func (s *server) abortExecute(m *Message, why string) {
	s.publishStatus("busy", m.Header)
	s.log.Info("aborting queued execute_request", "msg_id", m.Header.MsgID, "why", why)
	s.reply(s.shell, m, "execute_reply", ExecuteReply{
		Status: "aborted", ExecutionCount: s.count,
		UserExpressions: map[string]any{}, Payload: []any{},
	})
	s.publishStatus("idle", m.Header)
}

// handleShell serves one shell request; it returns how many queued requests must go
// through the abort path (non-zero only after a failed cell with stop_on_error).
func (s *server) handleShell(ctx context.Context, m *Message) (abort int) {
	s.publishStatus("busy", m.Header)
	defer s.publishStatus("idle", m.Header)
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic serving shell request", "msg_type", m.Header.MsgType, "panic", r, "stack", string(debug.Stack()))
			s.reply(s.shell, m, replyType(m.Header.MsgType), map[string]any{
				"status": "error", "ename": "InternalError", "evalue": fmt.Sprint(r), "traceback": []string{fmt.Sprint(r)},
			})
			abort = 0
		}
	}()
	if m.badContent != nil {
		if m.Header.MsgType == "execute_request" {
			s.badExecute(m, m.badContent)
		} else {
			s.badRequest(s.shell, m, m.badContent)
		}
		return 0
	}
	switch m.Header.MsgType {
	case "kernel_info_request":
		s.reply(s.shell, m, "kernel_info_reply", s.kernelInfo())
	case "execute_request":
		return s.execute(ctx, m)
	case "complete_request":
		s.complete(m)
	case "inspect_request":
		s.inspect(m)
	case "is_complete_request":
		var c IsCompleteRequest
		if err := decodeContent(m, &c); err != nil {
			s.badRequest(s.shell, m, err)
			return 0
		}
		status, indent := s.eng.IsComplete(c.Code)
		switch status {
		case "complete", "incomplete", "invalid", "unknown":
		default:
			s.log.Warn("engine gave an unknown is_complete status", "status", status)
			status = "unknown"
		}
		rep := IsCompleteReply{Status: status}
		if status == "incomplete" {
			rep.Indent = &indent
		}
		s.reply(s.shell, m, "is_complete_reply", rep)
	case "history_request":
		s.historyRequest(m)
	case "comm_info_request":
		s.reply(s.shell, m, "comm_info_reply", CommInfoReply{Status: "ok", Comms: map[string]any{}})
	case "comm_open":
		var c CommOpen
		if err := decodeContent(m, &c); err != nil {
			s.log.Warn("bad comm_open", "err", err)
			return 0
		}
		s.log.Info("comm_open for unknown target: closing", "target", c.TargetName, "comm_id", c.CommID)
		_ = s.publish(m.Header, "comm_close", CommClose{CommID: c.CommID, Data: map[string]any{}})
	case "comm_msg", "comm_close":
		s.log.Debug("ignoring message for unknown comm", "msg_type", m.Header.MsgType)
	case "shutdown_request":
		s.shutdown(s.shell, m)
	default:
		s.log.Warn("unsupported shell message", "msg_type", m.Header.MsgType)
	}
	return 0
}

// badExecute answers an execute_request whose content could not be decoded: an error
// on iopub (so the frontend shows it in the cell) and an execute_reply with status "error".
func (s *server) badExecute(m *Message, err error) {
	s.log.Warn("bad execute_request content", "err", err)
	e := ErrorContent{Ename: "BadRequest", Evalue: err.Error(), Traceback: []string{"BadRequest: " + err.Error()}}
	_ = s.publish(m.Header, "error", e)
	s.reply(s.shell, m, "execute_reply", ExecuteReply{
		Status: "error", ExecutionCount: s.count, UserExpressions: map[string]any{}, Payload: []any{},
		Ename: e.Ename, Evalue: e.Evalue, Traceback: e.Traceback,
	})
}

// execute runs one execute_request; it returns how many queued requests to abort.
func (s *server) execute(ctx context.Context, m *Message) (abort int) {
	var c ExecuteRequestContent
	if err := decodeContent(m, &c); err != nil {
		s.badExecute(m, err)
		return 0
	}
	replied := make(chan struct{})
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		s.reply(s.shell, m, "execute_reply", ExecuteReply{Status: "aborted", ExecutionCount: s.count, UserExpressions: map[string]any{}, Payload: []any{}})
		return 0
	}
	s.cellReply = replied
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cellReply = nil
		s.mu.Unlock()
		close(replied)
		s.releaseMemory()
	}()
	store := (c.StoreHistory == nil || *c.StoreHistory) && !c.Silent
	stopOnError := c.StopOnError == nil || *c.StopOnError
	if store {
		s.count++
	}
	count := s.count
	// execute_input goes out once the cell can be interrupted: an interrupt that
	// follows it always reaches the cell.
	started := func() {
		if !c.Silent {
			_ = s.publish(m.Header, "execute_input", ExecuteInput{Code: c.Code, ExecutionCount: count})
		}
	}
	pub := &cellPublisher{s: s, parent: m.Header, silent: c.Silent}
	err := s.runCell(ctx, ExecuteRequest{Code: c.Code, Silent: c.Silent, StoreHistory: store, ExecutionCount: count}, pub, started)
	pub.close()
	if store {
		s.history.Add(count, c.Code)
	}
	rep := ExecuteReply{Status: "ok", ExecutionCount: count, UserExpressions: map[string]any{}, Payload: []any{}}
	if err != nil && s.isStopping() {
		err = shutdownError{cause: err}
	}
	if err != nil {
		e := describeError(err)
		s.log.Info("cell failed", "execution_count", count, "ename", e.Ename, "evalue", e.Evalue)
		if !c.Silent {
			_ = s.publish(m.Header, "error", e)
		}
		rep.Status, rep.Ename, rep.Evalue, rep.Traceback = "error", e.Ename, e.Evalue, e.Traceback
		if !c.Silent && stopOnError {
			abort = s.pendingBeforeReply(ctx)
		}
	}
	s.reply(s.shell, m, "execute_reply", rep)
	return abort
}

// pendingBeforeReply lets requests already in flight reach the queue, then counts them:
// every one of them was received before the reply, so the client sent it without
// knowing the cell failed.
func (s *server) pendingBeforeReply(ctx context.Context) int {
	t := time.NewTimer(s.abortSettle)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return len(s.queue)
}

// shutdownError is what a cell reports that a shutdown_request stopped.
type shutdownError struct{ cause error }

// Error says the cell did not finish because the kernel shut down.
func (e shutdownError) Error() string {
	return fmt.Sprintf("the kernel was shut down (shutdown_request) while this cell ran; the cell did not finish (%v)", e.cause)
}

// ErrorName returns "KernelShutdown".
func (shutdownError) ErrorName() string { return "KernelShutdown" }

// interruptedError is what an interrupted cell reports.
type interruptedError struct{}

// Error returns "interrupted".
func (interruptedError) Error() string { return "interrupted" }

// ErrorName returns "KeyboardInterrupt".
func (interruptedError) ErrorName() string { return "KeyboardInterrupt" }

// panicError is what a panicking engine reports.
type panicError struct {
	value any
	stack string
}

// Error describes the panic.
func (p panicError) Error() string { return fmt.Sprintf("internal error: %v", p.value) }

// ErrorName returns "InternalError".
func (panicError) ErrorName() string { return "InternalError" }

// Traceback returns the message and what to do: the goroutine stack cites
// KernelScope's own source files, which the notebook's user does not have, so
// it goes to the kernel's log (runCell), not to the cell.
func (p panicError) Traceback() []string {
	return []string{p.Error(), "This is a bug in KernelScope, not in the cell; the kernel keeps running. The stack is in the kernel's log (stderr, or the file KERNELSCOPE_LOG names): please report it with the cell."}
}

// runCell runs the engine on req in its own goroutine, cancellable by interrupt;
// started is called once an interrupt would cancel it.
func (s *server) runCell(ctx context.Context, req ExecuteRequest, pub Publisher, started func()) error {
	cellCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.cancelCell = cancel
	s.mu.Unlock()
	started()
	defer func() {
		s.mu.Lock()
		s.cancelCell = nil
		s.mu.Unlock()
	}()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				stack := string(debug.Stack())
				s.log.Error("engine panicked", "panic", r, "stack", stack)
				done <- panicError{value: r, stack: stack}
			}
		}()
		done <- s.eng.Execute(cellCtx, req, pub)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		return fmt.Errorf("kernel stopping: %w", ctx.Err())
	}
	if err != nil && cellCtx.Err() != nil && errors.Is(err, context.Canceled) {
		return interruptedError{}
	}
	return err
}

// describeError turns an engine error into the error message content.
func describeError(err error) ErrorContent {
	e := ErrorContent{Ename: "Error", Evalue: err.Error()}
	var n ErrorNamer
	if errors.As(err, &n) && n.ErrorName() != "" {
		e.Ename = n.ErrorName()
	}
	var t Tracebacker
	if errors.As(err, &t) {
		e.Traceback = t.Traceback()
	}
	if len(e.Traceback) == 0 {
		e.Traceback = strings.Split(e.Evalue, "\n")
		if _, ok := err.(interruptedError); ok {
			e.Traceback = []string{e.Ename + ": " + e.Evalue}
		}
	}
	return e
}

// complete answers complete_request, converting between code points and bytes.
func (s *server) complete(m *Message) {
	var c CompleteRequest
	if err := decodeContent(m, &c); err != nil {
		s.badRequest(s.shell, m, err)
		return
	}
	cur := runeToByte(c.Code, c.CursorPos)
	matches, start, end := s.eng.Complete(c.Code, cur)
	if matches == nil {
		matches = []string{}
	}
	start, end = clampRange(start, end, len(c.Code), cur)
	s.reply(s.shell, m, "complete_reply", CompleteReply{
		Status: "ok", Matches: matches,
		CursorStart: byteToRune(c.Code, start), CursorEnd: byteToRune(c.Code, end),
		Metadata: map[string]any{},
	})
}

// inspect answers inspect_request.
func (s *server) inspect(m *Message) {
	var c InspectRequest
	if err := decodeContent(m, &c); err != nil {
		s.badRequest(s.shell, m, err)
		return
	}
	data, found := s.eng.Inspect(c.Code, runeToByte(c.Code, c.CursorPos), c.DetailLevel)
	if data == nil {
		data = map[string]any{}
	}
	s.reply(s.shell, m, "inspect_reply", InspectReply{Status: "ok", Found: found, Data: data, Metadata: map[string]any{}})
}

// historyRequest answers history_request from the in-memory history.
func (s *server) historyRequest(m *Message) {
	var c HistoryRequest
	if err := decodeContent(m, &c); err != nil {
		s.badRequest(s.shell, m, err)
		return
	}
	n := -1
	if c.N != nil {
		n = *c.N
	}
	var entries []HistoryEntry
	switch c.HistAccessType {
	case "tail":
		if n < 0 {
			n = 10
		}
		entries = s.history.Tail(n)
	case "range":
		stop := 0
		if c.Stop != nil {
			stop = *c.Stop
		}
		entries = s.history.Range(c.Session, c.Start, stop)
	case "search":
		pattern := c.Pattern
		if pattern == "" {
			pattern = "*"
		}
		entries = s.history.Search(pattern, n, c.Unique)
	default:
		s.badRequest(s.shell, m, fmt.Errorf("hist_access_type %q: want tail, range or search", c.HistAccessType))
		return
	}
	rep := HistoryReply{Status: "ok", History: make([][3]any, 0, len(entries))}
	for _, e := range entries {
		var in any = e.Input
		if c.Output {
			in = []any{e.Input, nil}
		}
		rep.History = append(rep.History, [3]any{e.Session, e.Line, in})
	}
	s.reply(s.shell, m, "history_reply", rep)
}

// runeToByte converts a code-point offset into a byte offset, clamped to s.
func runeToByte(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == runes {
			return i
		}
		n++
	}
	return len(s)
}

// byteToRune converts a byte offset into a code-point offset, clamped to s.
func byteToRune(s string, b int) int {
	if b <= 0 {
		return 0
	}
	if b > len(s) {
		b = len(s)
	}
	return utf8.RuneCountInString(s[:b])
}

// clampRange makes [start, end) a valid byte range of a string of length n; an
// invalid range from the engine becomes the empty range at cur.
func clampRange(start, end, n, cur int) (int, int) {
	if start < 0 || end < start || end > n {
		return cur, cur
	}
	return start, end
}

// cellPublisher publishes one cell's outputs; it stops after the cell ends.
type cellPublisher struct {
	s      *server
	parent Header
	silent bool

	mu     sync.Mutex
	closed bool
}

// close makes later publishing fail.
func (p *cellPublisher) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// emit publishes msgType unless the cell is silent or finished.
func (p *cellPublisher) emit(msgType string, content any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return fmt.Errorf("publish %s: cell already finished", msgType)
	}
	if p.silent {
		return nil
	}
	return p.s.publish(p.parent, msgType, content)
}

// Display publishes display_data.
func (p *cellPublisher) Display(data, metadata map[string]any, displayID string) error {
	return p.emit("display_data", displayContent(data, metadata, displayID))
}

// UpdateDisplay publishes update_display_data.
func (p *cellPublisher) UpdateDisplay(data, metadata map[string]any, displayID string) error {
	if displayID == "" {
		return errors.New("update_display_data: empty display id")
	}
	return p.emit("update_display_data", displayContent(data, metadata, displayID))
}

// Stream publishes a stream message.
func (p *cellPublisher) Stream(name, text string) error {
	if name != "stdout" && name != "stderr" {
		return fmt.Errorf("stream %q: want stdout or stderr", name)
	}
	return p.emit("stream", StreamContent{Name: name, Text: text})
}

// displayContent fills in empty maps so the JSON has objects, not nulls.
func displayContent(data, metadata map[string]any, displayID string) DisplayData {
	if data == nil {
		data = map[string]any{}
	}
	if metadata == nil {
		metadata = map[string]any{}
	}
	return DisplayData{Data: data, Metadata: metadata, Transient: Transient{DisplayID: displayID}}
}

// releaseMemory returns freed heap memory to the operating system after a cell that
// allocated more than releaseAfter bytes: Go's background scavenger gives it back only
// slowly, and an idle kernel would keep the peak of its largest cell for minutes.
func (s *server) releaseMemory() {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	now := sample[0].Value.Uint64()
	if now-s.allocs > releaseAfter {
		debug.FreeOSMemory()
	}
	s.allocs = now
}

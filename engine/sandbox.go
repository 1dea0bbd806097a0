package engine

// WithSandbox turns sandbox mode on (a kernel started with --sandbox, for graders
// and hubs): %flags and %compiler are refused, file() and #include read only under
// the engine's base directory, and budgets, traces and buffers have hard caps.
func WithSandbox() Option {
	return func(e *Engine) { e.state.SetSandbox(true) }
}

package ptx

// Func returns the function or kernel called name, preferring a definition
// with a body over a prototype; nil when there is none.
func (m *Module) Func(name string) *Func {
	var decl *Func
	for _, f := range m.Funcs {
		if f.Name == name {
			if f.HasBody {
				return f
			}
			if decl == nil {
				decl = f
			}
		}
	}
	return decl
}

// Kernels returns the .entry functions that have a body, in source order.
func (m *Module) Kernels() []*Func {
	var out []*Func
	for _, f := range m.Funcs {
		if f.Entry && f.HasBody {
			out = append(out, f)
		}
	}
	return out
}

// DebugString returns the .debug_str string at label (a .loc function_name).
func (m *Module) DebugString(label string) (string, bool) {
	for _, d := range m.DebugStr {
		if d.Label == label {
			return d.Value, true
		}
	}
	return "", false
}

// LookupVar returns the body variable called name in effect at instruction
// inst: the latest declaration before it (nested scopes may redeclare a name);
// nil when there is none. Parameters are in Params, module variables in Module.Globals.
func (f *Func) LookupVar(name string, inst int) *Var {
	var best *Var
	for _, v := range f.Vars {
		if v.Name == name && v.Index <= inst {
			best = v
		}
	}
	return best
}

package toolchain

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// The compiler flags a cell may give (%flags, run --flags) are an explicit
// allow-list of flags and value forms: nothing that names a file to read or
// write, loads a plugin, passes options through to another tool (-Wp, -Wl,
// -Xclang, -Xcompiler ...), or reads a response file (@file). Every accepted
// flag is rewritten to one self-contained argv element ("-D N" becomes "-DN",
// "--maxrregcount 32" becomes "--maxrregcount=32"), so no user value can be
// taken by the compiler as a flag of its own or as an input file.

var (
	optFlagRE   = regexp.MustCompile(`^-O[0-3s]$`)
	macroNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	macroDefRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:=[A-Za-z0-9_.+-]*)?$`)
	stdRE       = regexp.MustCompile(`^(?:c|gnu)\+\+(?:03|11|14|17|20|2a|23|2b)$`)
	warnRE      = regexp.MustCompile(`^-W(?:no-)?(?:error=)?([a-z][a-z0-9+-]*)(?:=[a-z0-9+-]+)?$`)
	nvBoolRE    = regexp.MustCompile(`^--?(ftz|prec-div|prec-sqrt|fmad)=(true|false)$`)
	regCountRE  = regexp.MustCompile(`^[1-9][0-9]{0,2}$`)
	incDirRE    = regexp.MustCompile(`^[A-Za-z0-9_./+][A-Za-z0-9_./+-]*$`)
	contractRE  = regexp.MustCompile(`^-ffp-contract=(?:off|on|fast|fast-honor-pragmas)$`)
)

// mathFlags are the floating-point flags accepted as written (clang spellings).
var mathFlags = map[string]bool{
	"-ffast-math": true, "-fno-fast-math": true,
	"-ffinite-math-only": true, "-fno-finite-math-only": true,
	"-funsafe-math-optimizations": true, "-fno-unsafe-math-optimizations": true,
	"-freciprocal-math": true, "-fno-reciprocal-math": true,
	"-fassociative-math": true, "-fno-associative-math": true,
	"-fsigned-zeros": true, "-fno-signed-zeros": true,
	"-fhonor-nans": true, "-fno-honor-nans": true,
	"-fhonor-infinities": true, "-fno-honor-infinities": true,
	"-fgpu-approx-transcendentals": true, "-fno-gpu-approx-transcendentals": true,
	"-fgpu-flush-denormals-to-zero": true, "-fno-gpu-flush-denormals-to-zero": true,
	"-fcuda-approx-transcendentals": true, "-fno-cuda-approx-transcendentals": true,
	"-fcuda-flush-denormals-to-zero": true, "-fno-cuda-flush-denormals-to-zero": true,
	"-funroll-loops": true, "-fno-unroll-loops": true,
}

// nvccOnlyFlags are nvcc flags accepted as written; clang has no use for them and drops them.
var nvccOnlyFlags = map[string]bool{
	"-use_fast_math": true, "--use_fast_math": true,
	"-lineinfo": true, "--generate-line-info": true, "-G": true, "-g": true,
	"-restrict": true, "--restrict": true,
	"-expt-relaxed-constexpr": true, "--expt-relaxed-constexpr": true,
	"-extended-lambda": true, "--extended-lambda": true, "--expt-extended-lambda": true,
	"-extra-device-vectorization": true, "--extra-device-vectorization": true,
}

// ptxasValues are the ptxas options -Xptxas / --ptxas-options may pass (one per flag, no commas).
var ptxasValues = map[string]bool{
	"-v": true, "--verbose": true, "-O0": true, "-O1": true, "-O2": true, "-O3": true,
	"-warn-spills": true, "--warn-on-spills": true, "-warn-lmem-usage": true, "--warn-on-local-memory-usage": true,
}

// refusedWarnings are -W names that are pass-through prefixes (-Wp, -Wl, -Wa), not warnings.
var refusedWarnings = map[string]bool{"p": true, "l": true, "a": true}

// AllowedFlags describes the accepted compiler flags, for error messages and help.
const AllowedFlags = "-O0 -O1 -O2 -O3 -Os; -DNAME[=VALUE] -UNAME (VALUE of letters, digits, _ . + -); " +
	"-std=c++11|14|17|20|23 (or gnu++); -W<warning> -Wno-<warning> -Werror[=<warning>] (no commas); -w; " +
	"-ffast-math -fno-fast-math --use_fast_math -use_fast_math and the clang math flags (-ffinite-math-only, " +
	"-funsafe-math-optimizations, -freciprocal-math, -fno-signed-zeros, -fgpu-approx-transcendentals, " +
	"-fgpu-flush-denormals-to-zero and their -fno- forms); -ffp-contract=off|on|fast|fast-honor-pragmas; " +
	"-ftz= -prec-div= -prec-sqrt= -fmad= (true|false, also with --); -lineinfo -G -g; -maxrregcount=N; " +
	"-Xptxas=-v (or -O0..-O3, -warn-spills); -funroll-loops; -I<dir> (outside sandbox mode); " +
	"nvcc's --expt-relaxed-constexpr --extended-lambda -restrict"

// flagRefusal explains why some well-known dangerous flags are refused.
func flagRefusal(f string) string {
	switch {
	case strings.HasPrefix(f, "@"):
		return "it reads a response file"
	case strings.HasPrefix(f, "-Wp,") || strings.HasPrefix(f, "-Wl,") || strings.HasPrefix(f, "-Wa,") ||
		strings.HasPrefix(f, "-X") || strings.HasPrefix(f, "--compiler-options") || strings.HasPrefix(f, "--linker-options"):
		return "it passes options through to another program"
	case strings.HasPrefix(f, "-fplugin") || strings.HasPrefix(f, "-fpass-plugin") || f == "-load" || strings.HasPrefix(f, "-load="):
		return "it loads a plugin"
	case f == "-o" || strings.HasPrefix(f, "-M") || strings.HasPrefix(f, "--output") || strings.HasPrefix(f, "-odir") ||
		strings.HasPrefix(f, "-foptimization-record") || strings.HasPrefix(f, "-fsave-optimization-record") ||
		strings.HasPrefix(f, "--keep") || strings.HasPrefix(f, "-save-temps") || strings.HasPrefix(f, "--save-temps"):
		return "it writes a file"
	case strings.HasPrefix(f, "-include") || strings.HasPrefix(f, "-isystem") || strings.HasPrefix(f, "-iquote") ||
		strings.HasPrefix(f, "-idirafter") || strings.HasPrefix(f, "-B") || strings.HasPrefix(f, "--sysroot") ||
		strings.HasPrefix(f, "-ccbin") || strings.HasPrefix(f, "--compiler-bindir") || strings.HasPrefix(f, "--cuda-path") ||
		strings.HasPrefix(f, "-resource-dir") || strings.HasPrefix(f, "-isysroot"):
		return "it chooses files or programs the compiler uses"
	case !strings.HasPrefix(f, "-"):
		return "it is not a flag (an input file?)"
	}
	return ""
}

// flagError is the message for a refused flag: the flag, why, and what is allowed.
func flagError(f, why string) error {
	if why == "" {
		why = flagRefusal(f)
	}
	if why != "" {
		why = " (" + why + ")"
	}
	return fmt.Errorf("compiler flag %q is not allowed%s; allowed flags: %s", f, why, AllowedFlags)
}

// normaliseFlags checks flags against the allow-list and returns them as
// self-contained argv elements (two-token forms joined).
func normaliseFlags(flags []string) ([]string, error) {
	var out []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		next := func(what string) (string, error) {
			if i+1 >= len(flags) {
				return "", flagError(f, "it needs "+what+" after it")
			}
			i++
			return flags[i], nil
		}
		switch {
		case optFlagRE.MatchString(f), f == "-w", mathFlags[f], nvccOnlyFlags[f], contractRE.MatchString(f):
			out = append(out, f)
		case f == "-D" || f == "-U":
			v, err := next("a macro")
			if err != nil {
				return nil, err
			}
			if (f == "-D" && !macroDefRE.MatchString(v)) || (f == "-U" && !macroNameRE.MatchString(v)) {
				return nil, flagError(f+" "+v, "a macro is NAME or NAME=VALUE with VALUE of letters, digits, _ . + -")
			}
			out = append(out, f+v)
		case strings.HasPrefix(f, "-D"):
			if !macroDefRE.MatchString(f[2:]) {
				return nil, flagError(f, "a macro is NAME or NAME=VALUE with VALUE of letters, digits, _ . + -")
			}
			out = append(out, f)
		case strings.HasPrefix(f, "-U"):
			if !macroNameRE.MatchString(f[2:]) {
				return nil, flagError(f, "-U takes a macro name")
			}
			out = append(out, f)
		case f == "-std" || f == "--std":
			v, err := next("a standard like c++17")
			if err != nil {
				return nil, err
			}
			if !stdRE.MatchString(v) {
				return nil, flagError(f+" "+v, "unknown language standard")
			}
			out = append(out, "-std="+v)
		case strings.HasPrefix(f, "-std=") || strings.HasPrefix(f, "--std="):
			v := f[strings.IndexByte(f, '=')+1:]
			if !stdRE.MatchString(v) {
				return nil, flagError(f, "unknown language standard")
			}
			out = append(out, "-std="+v)
		case strings.HasPrefix(f, "-W") && !strings.Contains(f, ","):
			m := warnRE.FindStringSubmatch(f)
			if m == nil || refusedWarnings[m[1]] {
				return nil, flagError(f, "")
			}
			out = append(out, f)
		case nvBoolRE.MatchString(f):
			out = append(out, f)
		case f == "-ftz" || f == "--ftz" || f == "-prec-div" || f == "--prec-div" || f == "-prec-sqrt" ||
			f == "--prec-sqrt" || f == "-fmad" || f == "--fmad":
			v, err := next("true or false")
			if err != nil {
				return nil, err
			}
			if v != "true" && v != "false" {
				return nil, flagError(f+" "+v, "it takes true or false")
			}
			out = append(out, f+"="+v)
		case f == "-maxrregcount" || f == "--maxrregcount":
			v, err := next("a register count")
			if err != nil {
				return nil, err
			}
			if !regCountRE.MatchString(v) {
				return nil, flagError(f+" "+v, "it takes a register count from 1 to 999")
			}
			out = append(out, f+"="+v)
		case strings.HasPrefix(f, "-maxrregcount=") || strings.HasPrefix(f, "--maxrregcount="):
			if !regCountRE.MatchString(f[strings.IndexByte(f, '=')+1:]) {
				return nil, flagError(f, "it takes a register count from 1 to 999")
			}
			out = append(out, f)
		case f == "-Xptxas" || f == "--ptxas-options":
			v, err := next("a ptxas option")
			if err != nil {
				return nil, err
			}
			if !ptxasValues[v] {
				return nil, flagError(f+" "+v, "ptxas options allowed: -v, -O0..-O3, -warn-spills, -warn-lmem-usage")
			}
			out = append(out, "--ptxas-options="+v)
		case strings.HasPrefix(f, "-Xptxas=") || strings.HasPrefix(f, "--ptxas-options="):
			v := f[strings.IndexByte(f, '=')+1:]
			if !ptxasValues[v] {
				return nil, flagError(f, "ptxas options allowed: -v, -O0..-O3, -warn-spills, -warn-lmem-usage")
			}
			out = append(out, "--ptxas-options="+v)
		case f == "-I":
			v, err := next("a directory")
			if err != nil {
				return nil, err
			}
			if !incDirRE.MatchString(v) {
				return nil, flagError(f+" "+v, "a directory of letters, digits, _ . / + -")
			}
			out = append(out, "-I"+v)
		case strings.HasPrefix(f, "-I"):
			if !incDirRE.MatchString(f[2:]) {
				return nil, flagError(f, "a directory of letters, digits, _ . / + -")
			}
			out = append(out, f)
		default:
			return nil, flagError(f, "")
		}
	}
	return out, nil
}

// CheckFlags rejects flags outside the allow-list (AllowedFlags), naming the flag.
func CheckFlags(flags []string) error {
	_, err := normaliseFlags(flags)
	return err
}

// resolveIncludeFlags makes each relative -I directory of normalised flags absolute
// against base (the source's or notebook's directory): the compiler runs in a temp dir.
func resolveIncludeFlags(flags []string, base string) []string {
	out := make([]string, len(flags))
	for i, f := range flags {
		if strings.HasPrefix(f, "-I") && !filepath.IsAbs(f[2:]) {
			b := base
			if b == "" {
				b = "."
			}
			if abs, err := filepath.Abs(filepath.Join(b, f[2:])); err == nil {
				f = "-I" + abs
			}
		}
		out[i] = f
	}
	return out
}

// clangFlags checks flags and translates nvcc spellings to clang's; flags clang
// has no equivalent for are dropped. Flags that fail the allow-list give none at all.
// Relative -I directories are made absolute against includeDir.
func clangFlags(flags []string, includeDir string) []string {
	norm, err := normaliseFlags(flags)
	if err != nil {
		return nil
	}
	norm = resolveIncludeFlags(norm, includeDir)
	var out []string
	for _, f := range norm {
		switch {
		case f == "-use_fast_math" || f == "--use_fast_math":
			// nvcc's -use_fast_math: fast intrinsics for the math library and
			// flush-to-zero and -prec-div=false (a float '/' is div.approx.ftz.f32, as
			// nvcc's PTX has it: LLVM's -nvptx-prec-divf32=0; the prelude's own float
			// divisions are explicit div.rn); unlike clang's -ffast-math it does not reassociate.
			out = append(out, "-fgpu-approx-transcendentals", "-fgpu-flush-denormals-to-zero")
			out = append(out, fastDivArgs...)
		case nvBoolRE.MatchString(f):
			m := nvBoolRE.FindStringSubmatch(f)
			switch m[1] + "=" + m[2] {
			case "ftz=true":
				out = append(out, "-fgpu-flush-denormals-to-zero")
			case "ftz=false":
				out = append(out, "-fno-gpu-flush-denormals-to-zero")
			case "fmad=false":
				out = append(out, "-ffp-contract=off")
			case "fmad=true":
				out = append(out, "-ffp-contract=fast-honor-pragmas")
			}
			// prec-div and prec-sqrt: clang has no equivalent; dropped.
		case nvccOnlyFlags[f] || strings.HasPrefix(f, "-maxrregcount=") || strings.HasPrefix(f, "--maxrregcount=") ||
			strings.HasPrefix(f, "--ptxas-options="):
			// no clang equivalent (clang already emits line tables; no ptxas runs)
		default:
			out = append(out, f)
		}
	}
	return out
}

// fastDivArgs make LLVM's NVPTX back end emit a float '/' as div.approx (nvcc's
// -prec-div=false under -use_fast_math): 0 = div.approx, 1 = div.full, 2 = div.rn.
var fastDivArgs = []string{"-mllvm", "-nvptx-prec-divf32=0"}

// codegenFlags are the clang arguments of flags that code generation from LLVM IR
// needs again (clangIRToPTX): -use_fast_math's division; none for a list that fails the allow-list.
func codegenFlags(flags []string) []string {
	norm, err := normaliseFlags(flags)
	if err != nil {
		return nil
	}
	for _, f := range norm {
		if f == "-use_fast_math" || f == "--use_fast_math" {
			return fastDivArgs
		}
	}
	return nil
}

// nvccFlags checks flags and returns them in nvcc's spelling; a list that fails the allow-list gives none.
func nvccFlags(flags []string, includeDir string) []string {
	norm, err := normaliseFlags(flags)
	if err != nil {
		return nil
	}
	norm = resolveIncludeFlags(norm, includeDir)
	out := make([]string, 0, len(norm))
	for _, f := range norm {
		switch {
		case f == "-ffast-math":
			out = append(out, "-use_fast_math")
		case f == "-ffp-contract=off":
			out = append(out, "-fmad=false")
		case f == "-ffp-contract=on" || f == "-ffp-contract=fast" || f == "-ffp-contract=fast-honor-pragmas":
			out = append(out, "-fmad=true")
		case mathFlags[f]:
			// other clang-only spellings: nvcc would reject them
		default:
			out = append(out, f)
		}
	}
	return out
}

package toolchain

// Go replay, operation for operation, of the special functions of
// prelude/kernelscope_libdevice.h (section "special functions"): atan, atan2, asin,
// acos, cbrt, rcbrt, hypot and the norms, sinpi, cospi, erf, erfc, erfcx, erfinv,
// erfcinv, normcdf, normcdfinv. Products that feed an addition are wrapped in
// float64() so that Go never fuses them (the C has contraction off).

import "math"

const (
	ksPiHi     = 3.141592653589793
	ksPiLo     = 1.2246467991473532e-16
	ksPio2Hi   = 1.5707963267948966
	ksPio2Lo   = 6.123233995736766e-17
	ks2SqrtPiH = 1.1283791670955126
	ks2SqrtPiL = 1.533545961316588e-17
	ksRsqrt2H  = 0.7071067811865476
	ksRsqrt2L  = -4.833646656726457e-17
	ksSqrtPi2  = 0.886226925452758
	ksRsqrtPi  = 0.5641895835477563
	ksSqrt2    = 1.4142135623730951
)

var atanHi = [9]float64{0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225, 0.4636476090008061,
	0.5585993153435624, 0.6435011087932844, 0.7188299996216245, 0.7853981633974483}
var atanLo = [9]float64{0, -3.1253241424539383e-18, 1.0698755618734451e-17, -2.4623815582638635e-17, 2.2698777452961687e-17,
	-5.4556305485916264e-18, 1.5834785051444286e-17, -2.1478388444456983e-17, 3.061616997868383e-17}

// atan's Taylor coefficients after t: -1/3, 1/5, ... -1/15, highest first.
var atanP = []float64{-0.06666666666666667, 0.07692307692307693, -0.09090909090909091, 0.1111111111111111,
	-0.14285714285714285, 0.2, -0.3333333333333333}

func horner(c []float64, v float64) float64 {
	p := c[0]
	for _, k := range c[1:] {
		p = math.FMA(p, v, k)
	}
	return p
}

// ddSubFrom returns (ch + cl) - (h + l) as a double-double; |ch| >= |h|.
func ddSubFrom(ch, cl, h, l float64) (float64, float64) {
	s := ch - h
	e := (ch - s) - h
	l2 := (e + cl) - l
	h2 := s + l2
	return h2, l2 - (h2 - s)
}

// atanDD is atan(r + rl) for 0 <= r <= 1 as a double-double.
func atanDD(r, rl float64) (float64, float64) {
	k := int(math.RoundToEven(r * 8))
	c := float64(k) * 0.125
	t, tl := r, rl
	if k != 0 {
		n := r - c
		d := math.FMA(r, c, 1)
		de := math.FMA(r, c, 1-d) + float64(rl*c)
		t = n / d
		tl = float64(float64(math.FMA(-t, d, n)+rl)-float64(t*de)) / d
	}
	z := float64(t * t)
	tail := float64(float64(t*z) * horner(atanP, z))
	low := float64(atanLo[k]+tl) + tail
	s := atanHi[k] + t
	e := (atanHi[k] - s) + t
	l := e + low
	h := s + l
	return h, l - (h - s)
}

func ksAtan(x float64) float64 {
	if x != x {
		return x + x
	}
	a := math.Abs(x)
	var h float64
	switch {
	case a <= 1:
		h, _ = atanDD(a, 0)
	case math.IsInf(a, 0):
		h = ksPio2Hi
	default:
		r := 1 / a
		rl := math.FMA(-r, a, 1) / a
		hh, ll := atanDD(r, rl)
		h, _ = ddSubFrom(ksPio2Hi, ksPio2Lo, hh, ll)
	}
	return math.Copysign(h, x)
}

func ksAtan2(y, x float64) float64 {
	if x != x || y != y {
		return x + y
	}
	ax, ay := math.Abs(x), math.Abs(y)
	var v float64
	switch {
	case ay == 0:
		v = 0
		if math.Signbit(x) {
			v = ksPiHi
		}
	case ax == 0:
		v = ksPio2Hi
	case math.IsInf(ax, 0):
		switch {
		case math.IsInf(ay, 0) && x > 0:
			v = 0.7853981633974483
		case math.IsInf(ay, 0):
			v = 2.356194490192345
		case x > 0:
			v = 0
		default:
			v = ksPiHi
		}
	case math.IsInf(ay, 0):
		v = ksPio2Hi
	default:
		mn, mx := math.Min(ax, ay), math.Max(ax, ay)
		if mx < 0x1p-900 {
			mn, mx = float64(mn*0x1p600), float64(mx*0x1p600)
		}
		r := mn / mx
		rl := math.FMA(-r, mx, mn) / mx
		h, l := atanDD(r, rl)
		if ay > ax {
			h, l = ddSubFrom(ksPio2Hi, ksPio2Lo, h, l)
		}
		if x < 0 {
			h, _ = ddSubFrom(ksPiHi, ksPiLo, h, l)
		}
		v = h
	}
	return math.Copysign(v, y)
}

// sqrt1m returns sqrt(1 - a*a) as a double-double for 0 <= a <= 1.
func sqrt1m(a float64) (float64, float64) {
	a2h := float64(a * a)
	a2l := math.FMA(a, a, -a2h)
	wh := 1 - a2h
	wl := ((1 - wh) - a2h) - a2l
	if wh == 0 {
		return 0, 0
	}
	sh := math.Sqrt(wh)
	sl := float64(math.FMA(-sh, sh, wh)+wl) / float64(2*sh)
	return sh, sl
}

func ksAsin(x float64) float64 {
	a := math.Abs(x)
	if x != x {
		return x + x
	}
	if a > 1 {
		return math.NaN()
	}
	sh, sl := sqrt1m(a)
	var h float64
	if a <= sh {
		q := a / sh
		ql := float64(math.FMA(-q, sh, a)-float64(q*sl)) / sh
		h, _ = atanDD(q, ql)
	} else {
		q := sh / a
		ql := float64(math.FMA(-q, a, sh)+sl) / a
		hh, ll := atanDD(q, ql)
		h, _ = ddSubFrom(ksPio2Hi, ksPio2Lo, hh, ll)
	}
	return math.Copysign(h, x)
}

func ksAcos(x float64) float64 {
	a := math.Abs(x)
	if x != x {
		return x + x
	}
	if a > 1 {
		return math.NaN()
	}
	sh, sl := sqrt1m(a)
	var h, l float64
	if sh <= a {
		q := sh / a
		ql := float64(math.FMA(-q, a, sh)+sl) / a
		h, l = atanDD(q, ql)
	} else {
		q := a / sh
		ql := float64(math.FMA(-q, sh, a)-float64(q*sl)) / sh
		hh, ll := atanDD(q, ql)
		h, l = ddSubFrom(ksPio2Hi, ksPio2Lo, hh, ll)
	}
	if x < 0 {
		h, _ = ddSubFrom(ksPiHi, ksPiLo, h, l)
	}
	return h
}

// cbrtDD returns cbrt(|x|) = (y + yl) * 2^s for finite nonzero x.
func cbrtDD(x float64) (float64, float64, int) {
	a := math.Abs(x)
	k := 0
	if math.Float64bits(a) < 0x0010000000000000 {
		a = float64(a * 18014398509481984.0) // 2^54
		k = -18
	}
	b := math.Float64bits(a)
	e := int(b>>52) - 1023
	q := (e+1200)/3 - 400
	rem := e - 3*q
	m := math.Float64frombits(b&0x000fffffffffffff | uint64(rem+1023)<<52)
	y := 1 + float64(float64(m-1)*0.14285714285714285)
	for i := 0; i < 5; i++ {
		y = float64(float64(2*y)+float64(m/float64(y*y))) * 0.3333333333333333
	}
	y2h := float64(y * y)
	y2l := math.FMA(y, y, -y2h)
	y3h := float64(y2h * y)
	y3l := math.FMA(y2h, y, -y3h) + float64(y2l*y)
	r := (m - y3h) - y3l
	yl := r / float64(3*y2h)
	return y, yl, q + k
}

func ksCbrt(x float64) float64 {
	if x == 0 || x != x || math.IsInf(x, 0) {
		return x + x
	}
	y, yl, s := cbrtDD(x)
	return math.Copysign(scale(y+yl, s), x)
}

func ksRcbrt(x float64) float64 {
	if x != x {
		return x + x
	}
	if x == 0 {
		return math.Copysign(math.Inf(1), x)
	}
	if math.IsInf(x, 0) {
		return math.Copysign(0, x)
	}
	y, yl, s := cbrtDD(x)
	h := y + yl
	hl := yl - (h - y)
	inv := 1 / h
	invl := float64(math.FMA(-inv, h, 1)-float64(inv*hl)) / h
	return math.Copysign(scale(inv+invl, -s), x)
}

// sumSquares returns sum v_i^2 = (s + sl) * 4^e, e the exponent of the largest |v_i|;
// done is set for infinities, NaNs and all-zero input (the norm is then *v).
func sumSquares(v []float64) (s, sl float64, e int, done bool, special float64) {
	m := 0.0
	nan := false
	for _, x := range v {
		a := math.Abs(x)
		if math.IsInf(a, 0) {
			return 0, 0, 0, true, math.Inf(1)
		}
		if a != a {
			nan = true
		}
		m = math.Max(m, a)
	}
	if nan {
		return 0, 0, 0, true, math.NaN()
	}
	if m == 0 {
		return 0, 0, 0, true, 0
	}
	b := math.Float64bits(m)
	e = int(b>>52) - 1023
	if b < 0x0010000000000000 {
		e = int(math.Float64bits(float64(m*18014398509481984.0))>>52) - 1023 - 54
	}
	for _, x := range v {
		w := scale(math.Abs(x), -e)
		p := float64(w * w)
		pl := math.FMA(w, w, -p)
		s2 := s + p
		bb := s2 - s
		err := (s - (s2 - bb)) + (p - bb)
		sl = sl + (err + pl)
		s = s2
	}
	return s, sl, e, false, 0
}

func ksNorm(v ...float64) float64 {
	s, sl, e, done, sp := sumSquares(v)
	if done {
		return sp
	}
	h := math.Sqrt(s)
	hl := float64(math.FMA(-h, h, s)+sl) / float64(2*h)
	return scale(h+hl, e)
}

func ksRnorm(v ...float64) float64 {
	s, sl, e, done, sp := sumSquares(v)
	if done {
		return 1 / sp
	}
	y := 1 / math.Sqrt(s)
	y2h := float64(y * y)
	y2l := math.FMA(y, y, -y2h)
	mh := float64(s * y2h)
	ml := float64(math.FMA(s, y2h, -mh)+float64(s*y2l)) + float64(sl*y2h)
	d := (1 - mh) - ml
	y = math.FMA(float64(y*0.5), d, y)
	return scale(y, -e)
}

// sinCosPi returns sin(pi x) and cos(pi x).
func sinCosPi(x float64) (float64, float64) {
	if x != x || math.IsInf(x, 0) {
		return x - x, x - x
	}
	a := math.Abs(x)
	if a >= 0x1p53 {
		return math.Copysign(0, x), 1
	}
	n := math.RoundToEven(float64(a * 2))
	r := a - float64(n*0.5)
	ni := int(int64(n)) & 3
	ph := float64(r * ksPiHi)
	pl := math.FMA(r, ksPiHi, -ph) + float64(r*ksPiLo)
	sp := math.FMA(pl, math.FMA(float64(-0.5*ph), ph, 1), sinKernel(ph))
	cp := math.FMA(-pl, ph, cosKernel(ph))
	var s, c float64
	switch ni {
	case 0:
		s, c = sp, cp
	case 1:
		s, c = cp, -sp
	case 2:
		s, c = -sp, -cp
	default:
		s, c = -cp, sp
	}
	if s == 0 {
		s = 0
	}
	if c == 0 {
		c = 0
	}
	if x < 0 {
		s = -s
	}
	return s, c
}

func ksSinpi(x float64) float64 { s, _ := sinCosPi(x); return s }
func ksCospi(x float64) float64 { _, c := sinCosPi(x); return c }

// expMulDD is m * e^(h + l), rounded once after the polynomial.
func expMulDD(h, l, m float64) float64 {
	switch {
	case h != h:
		return h
	case h > 709.782712893384:
		return math.Inf(1)
	case h < -745.1332191019412:
		return 0
	}
	j := math.RoundToEven(float64(h * 1.4426950408889634))
	r := math.FMA(j, -0.6931471805599453, h)
	r = r + l
	r = math.FMA(j, -2.3190468138462996e-17, r)
	return scale(math.FMA(m, expm1Kernel(r), m), int(j))
}

// erfSmall is erf x for |x| < 1.
func erfSmall(x float64) float64 {
	z := float64(x * x)
	tail := float64(z * horner(erfP[:len(erfP)-1], z))
	return math.FMA(x, ks2SqrtPiH, float64(x*float64(ks2SqrtPiL+tail)))
}

// erfcxPos is e^(x^2) erfc x for x >= 0.
func erfcxPos(x float64) float64 {
	switch {
	case x < 0.5:
		return float64(float64(1-erfSmall(x)) * ksExp(float64(x*x)))
	case x < 1:
		return horner(erfcx1, x-0.75)
	case x < 2:
		return horner(erfcx2, x-1.5)
	case x < 4:
		return horner(erfcx3, x-3)
	case x < 8:
		w := 1 / float64(x*x)
		return horner(erfcxW4, w-0.0390625) / x
	case x < 28:
		w := 1 / float64(x*x)
		return horner(erfcxW8, w-0.0087890625) / x
	}
	w := float64(1/x) / x
	return float64(ksRsqrtPi*horner(erfcxAsym, w)) / x
}

// erfcx's asymptotic series (-1)^k (2k-1)!!/2^k w^k, highest first.
var erfcxAsym = []float64{7918.06640625, -1055.7421875, 162.421875, -29.53125, 6.5625, -1.875, 0.75, -0.5, 1}

// erfcPos is erfc x for x >= 0.5.
func erfcPos(x float64) float64 {
	if x >= 28 {
		return 0
	}
	sq := float64(x * x)
	sql := math.FMA(x, x, -sq)
	return expMulDD(-sq, -sql, erfcxPos(x))
}

func ksErf(x float64) float64 {
	if x != x {
		return x + x
	}
	a := math.Abs(x)
	switch {
	case a < 1:
		return erfSmall(x)
	case a < 6:
		return math.Copysign(1-erfcPos(a), x)
	}
	return math.Copysign(1, x)
}

func ksErfc(x float64) float64 {
	switch {
	case x != x:
		return x + x
	case x >= 0.5:
		return erfcPos(x)
	case x > -0.5:
		return 1 - erfSmall(x)
	case x > -6:
		return 2 - erfcPos(-x)
	}
	return 2
}

func ksErfcx(x float64) float64 {
	switch {
	case x != x:
		return x + x
	case x >= 0:
		return erfcxPos(x)
	case x > -0.5:
		return float64(float64(1-erfSmall(x)) * ksExp(float64(x*x)))
	case x < -26.7:
		return math.Inf(1)
	}
	a := -x
	sq := float64(a * a)
	sql := math.FMA(a, a, -sq)
	return expMulDD(sq, sql, 2) - erfcxPos(a)
}

// erfinvSmall solves erf x = a for 0 <= a <= 0.5 by Newton's method.
func erfinvSmall(a float64) float64 {
	x := float64(a*ksSqrtPi2) * float64(1+float64(float64(a*a)*0.2617993877991494))
	for i := 0; i < 5; i++ {
		d := erfSmall(x) - a
		x = x - float64(d*float64(ksSqrtPi2*ksExp(float64(x*x))))
	}
	return x
}

// erfcinvSmall solves erfc x = z for 0 < z <= 0.5: Newton's method on
// log erfc x = -x^2 + log erfcx x, which neither underflows nor loses accuracy.
func erfcinvSmall(z float64) float64 {
	lh, ll := logDD(z)
	L := -lh
	sl := math.Sqrt(L)
	x := math.Sqrt(L - ksLog(float64(sl*1.772453850905516)))
	for i := 0; i < 5; i++ {
		sq := float64(x * x)
		sql := math.FMA(x, x, -sq)
		E := erfcxPos(x)
		f := float64(float64(float64(-sq-lh)-sql)-ll) + ksLog(E)
		x = x + float64(f*float64(ksSqrtPi2*E))
	}
	return x
}

func ksErfinv(y float64) float64 {
	a := math.Abs(y)
	switch {
	case y != y:
		return y + y
	case a > 1:
		return math.NaN()
	case a == 1:
		return math.Copysign(math.Inf(1), y)
	case a == 0:
		return y
	case a <= 0.5:
		return math.Copysign(erfinvSmall(a), y)
	}
	return math.Copysign(erfcinvSmall(1-a), y)
}

func ksErfcinv(z float64) float64 {
	switch {
	case z != z:
		return z + z
	case z < 0 || z > 2:
		return math.NaN()
	case z == 0:
		return math.Inf(1)
	case z == 2:
		return math.Inf(-1)
	case z > 1:
		w := 2 - z
		if w > 0.5 {
			return -erfinvSmall(1 - w)
		}
		return -erfcinvSmall(w)
	case z >= 0.5:
		if z == 1 {
			return 0
		}
		return erfinvSmall(1 - z)
	}
	return erfcinvSmall(z)
}

func ksNormcdf(x float64) float64 {
	if x != x {
		return x + x
	}
	uh := float64(x * -ksRsqrt2H)
	ul := math.FMA(x, -ksRsqrt2H, -uh) + float64(x*-ksRsqrt2L)
	switch {
	case uh >= 28:
		return 0
	case uh >= 0.5:
		E := erfcxPos(uh)
		Ec := math.FMA(ul, float64(float64(float64(2*uh)*E)-ks2SqrtPiH), E)
		sq := float64(uh * uh)
		sql := math.FMA(uh, uh, -sq) + float64(float64(2*uh)*ul)
		return expMulDD(-sq, -sql, float64(0.5*Ec))
	case uh > -0.5:
		return 0.5 - float64(0.5*erfSmall(uh))
	case uh > -6:
		return 1 - float64(0.5*erfcPos(-uh))
	}
	return 1
}

func ksNormcdfinv(p float64) float64 {
	switch {
	case p != p:
		return p + p
	case p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	return float64(-ksSqrt2 * ksErfcinv(2*p))
}

var erfP = []float64{-1.964236133686805e-14, 4.2604850949292194e-13, -6.681447182476303e-12, 9.41989815178708e-11, -1.2290371081417643e-09, 1.4807184714778181e-08, -1.636584444873744e-07, 1.6462114361038428e-06, -1.4925650358343616e-05, 0.0001205533298178917, -0.0008548327023450851, 0.005223977625442188, -0.026866170645131252, 0.11283791670955126, -0.37612638903183754, 1.1283791670955126}
var erfcx1 = []float64{-1.3223499032928838e-07, 4.45144412960667e-07, -1.4237320376078968e-06, 4.542475591917575e-06, -1.408848644133205e-05, 4.237255987767501e-05, -0.00012335437449096325, 0.00034675065999351383, -0.0009385120614937002, 0.00243763736082092, -0.0060515322972083474, 0.014289198665935013, -0.03189726203968182, 0.06679054252756873, -0.1298360619948811, 0.2309581315512983, -0.3679726916557954, 0.5069376502931449}
var erfcx2 = []float64{5.5768512096422995e-11, -2.2633906949900988e-10, 8.282521943813097e-10, -3.2232218342005464e-09, 1.2325489775423483e-08, -4.59708313633249e-08, 1.675494628052676e-07, -5.960817704990839e-07, 2.0669708158872572e-06, -6.974991687692405e-06, 2.2864312210489412e-05, -7.265892219035702e-05, 0.0002233099443531609, -0.0006619300664118113, 0.0018861348770297256, -0.005145957547985019, 0.013377340953066719, -0.03293090529956264, 0.0761510398554774, -0.16362291773256007, 0.3215854164543175}
var erfcx3 = []float64{-4.790854807999966e-16, 2.530937620322843e-15, -1.03296476069403e-14, 5.281869800297876e-14, -2.7392841430636563e-13, 1.3643033588165268e-12, -6.685060361775581e-12, 3.2314480176802486e-11, -1.5377579382966578e-10, 7.198597222315457e-10, -3.3128919638723895e-09, 1.4977684839700926e-08, -6.646685456532041e-08, 2.8926667601876184e-07, -1.233367727561235e-06, 5.146436562019569e-06, -2.0989464460185537e-05, 8.35541396287413e-05, -0.00032412554449686326, 0.0012230390523768054, -0.004479431018372575, 0.015884371159871336, -0.05437226000717287, 0.17900115118138996}
var erfcxW4 = []float64{-1.1172645155671827e+10, 1.4266249738501973e+09, -1.6084755470155087e+08, 2.2312727894156843e+07, -3.252638569314122e+06, 491016.4221976093, -77929.23825782233, 13088.899703010413, -2343.399697760412, 451.42949510867106, -94.69442698421139, 21.972204371527578, -5.761704397774955, 1.7608315395824203, -0.6575783773389359, 0.32551774975812653, -0.2531516745214896, 0.5537602328010941}
var erfcxW8 = []float64{-1.7153301102159285e+10, 1.3792030723490987e+09, -1.2271568789656648e+08, 1.2008384976692766e+07, -1.2586525366879804e+06, 142514.68760674342, -17591.86708533935, 2393.1970519188944, -363.7369334499992, 62.86355839022778, -12.649685545460397, 3.063983864678758, -0.9394283464341727, 0.39686004741027675, -0.27489231101436223, 0.5617422245641448}

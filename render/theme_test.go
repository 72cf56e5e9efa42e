package render

import (
	"image/color"
	"testing"

	"flamedesk/core"
	"flamedesk/timeline"
)

func TestURLColoursAreStableAndSpread(t *testing.T) {
	urls := []string{"https://example.com/app.js", "https://cdn.example.com/react-dom.production.min.js",
		"file:///home/u/project/dist/bundle.js", "node:internal/modules/cjs/loader", "wasm://wasm/0011a2b6"}
	seen := map[[2]float64]bool{}
	for _, u := range urls {
		h, s := URLHue(u)
		if h < 30 || h >= 330 || (s != 0.5 && s != 0.65 && s != 0.8) {
			t.Errorf("%s: hue %g saturation %g out of range", u, h, s)
		}
		seen[[2]float64{h, s}] = true
	}
	if len(seen) < len(urls)-1 {
		t.Errorf("%d URLs got only %d colours", len(urls), len(seen))
	}
	// Pinned values: changing the hash would recolour every user's charts between versions.
	if h, s := URLHue("https://example.com/app.js"); h != urlHuePinned[0] || s != urlHuePinned[1] {
		t.Errorf("URLHue changed: %g, %g", h, s)
	}
	if Light().URLColor("") != Light().NoURL || Dark().URLColor("") != Dark().NoURL {
		t.Error("a call without a URL does not get the neutral colour")
	}
}

// urlHuePinned is 32-bit FNV-1a of "https://example.com/app.js" as computed by an independent
// implementation (Python): 0x4cac8820; 0x4cac8820 % 300 = 56 → hue 86; 0x4cac % 3 = 2 → 0.8.
var urlHuePinned = [2]float64{86, 0.8}

func TestSameURLSameColourAcrossTraces(t *testing.T) {
	mk := func(extra string) *timeline.Model {
		tr := &core.Trace{Strings: core.NewStrings()}
		// Intern other strings first so the URL gets a different id in each trace.
		tr.Strings.Intern(extra)
		url := tr.Strings.Intern("https://x.test/app.js")
		fn := tr.Strings.Intern("main")
		tr.Frames = []core.CallFrame{{FunctionName: fn, URL: url}}
		tr.Threads = []core.Thread{{Pid: 1, Tid: 1}}
		tr.Tracks = []core.Track{{Thread: 0, Start: core.Times{Wide: []float64{0}}, Dur: core.Times{Wide: []float64{10}},
			Depth: []uint16{0}, KindColumn: []core.EntryKind{core.EntryProfileCall}, Name: []core.StrID{fn},
			FrameColumn: []core.FrameID{0}, Parent: []int32{-1}, Ref: []int32{0}, Node: []int32{1}}}
		return timeline.New(tr)
	}
	a, b := mk("a"), mk("some other string")
	ref := timeline.EntryRef{Track: 0, Entry: 0}
	for _, th := range []*Theme{Light(), Dark()} {
		ca, cb := NewBuilder(a).EntryColor(ref, th), NewBuilder(b).EntryColor(ref, th)
		if ca != cb || ca != th.URLColor("https://x.test/app.js") {
			t.Errorf("%s: %v vs %v", th.Name, ca, cb)
		}
	}
}

func TestEventCategories(t *testing.T) {
	for _, c := range []struct {
		name, cat string
		want      Category
	}{
		{"FunctionCall", "devtools.timeline", CatScripting},
		{"EvaluateScript", "devtools.timeline", CatScripting},
		{"Layout", "devtools.timeline", CatRendering},
		{"UpdateLayoutTree", "blink,devtools.timeline", CatRendering},
		{"Paint", "devtools.timeline,rail", CatPainting},
		{"RasterTask", "disabled-by-default-devtools.timeline", CatPainting},
		{"ParseHTML", "devtools.timeline", CatLoading},
		{"MajorGC", "devtools.timeline,v8", CatGC},
		{"V8.GCScavenger", "devtools.timeline,disabled-by-default-v8.gc", CatGC},
		{"BlinkGC.AtomicPhaseMarking", "blink_gc", CatGC},
		{"RunTask", "disabled-by-default-devtools.timeline", CatSystem},
		{"v8.callFunction", "v8", CatScripting},
		{"SomethingNew", "disabled-by-default-v8.gc", CatGC},
		{"SomethingNew", "loading", CatLoading},
		{"SomethingNew", "cc,benchmark", CatPainting},
		{"SomethingNew", "toplevel", CatSystem},
	} {
		if got := EventCategory(c.name, c.cat); got != c.want {
			t.Errorf("%s [%s]: %v, want %v", c.name, c.cat, got, c.want)
		}
	}
	th := Light()
	// The palette DevTools users know: scripting yellow, rendering purple, painting green,
	// loading blue, system and GC grey.
	hueOf := func(c Category) (h, s float64) { return hueSat(th.Categories[c]) }
	for _, c := range []struct {
		cat    Category
		lo, hi float64
	}{{CatScripting, 35, 60}, {CatRendering, 240, 290}, {CatPainting, 90, 150}, {CatLoading, 200, 235}} {
		if h, s := hueOf(c.cat); h < c.lo || h > c.hi || s < 0.3 {
			t.Errorf("%v: hue %g saturation %g, want a hue in [%g, %g]", c.cat, h, s, c.lo, c.hi)
		}
	}
	for _, c := range []Category{CatSystem, CatGC} {
		if _, s := hueOf(c); s > 0.15 {
			t.Errorf("%v is not grey: saturation %g", c, s)
		}
	}
}

// hueSat is the HSL hue and saturation of an opaque colour.
func hueSat(c interface{ RGBA() (r, g, b, a uint32) }) (h, s float64) {
	r32, g32, b32, _ := c.RGBA()
	r, g, b := float64(r32)/0xffff, float64(g32)/0xffff, float64(b32)/0xffff
	mx, mn := max(r, g, b), min(r, g, b)
	l := (mx + mn) / 2
	if mx == mn {
		return 0, 0
	}
	d := mx - mn
	if l > 0.5 {
		s = d / (2 - mx - mn)
	} else {
		s = d / (mx + mn)
	}
	switch mx {
	case r:
		h = (g - b) / d
		if g < b {
			h += 6
		}
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return h * 60, s
}

func TestLabelsKeepReadableContrast(t *testing.T) {
	// WCAG AA asks 4.5:1 for small text. Every bar colour either theme can make — all
	// categories, the neutral colour and every URL hue and saturation — must reach it with the
	// label colour TextOn picks.
	for _, th := range []*Theme{Light(), Dark()} {
		check := func(what string, c color.NRGBA) {
			if r := ContrastRatio(th.TextOn(c), c); r < MinContrast {
				t.Errorf("%s theme, %s %v: contrast %.2f", th.Name, what, c, r)
			}
		}
		for cat := Category(0); cat < numCategories; cat++ {
			check(cat.String(), th.Categories[cat])
		}
		check("no URL", th.NoURL)
		for hue := 30; hue < 330; hue++ {
			for _, s := range []float64{0.5, 0.65, 0.8} {
				check("URL hue", hsl(float64(hue), s, th.URLLightness))
			}
		}
	}
}

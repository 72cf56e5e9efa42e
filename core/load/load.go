// Package load owns the input side of core: it reads Chrome traces (a JSON array of events or
// {"traceEvents": [...]}, gzipped or not, cut short or not), .cpuprofile files (children, parent
// and legacy head forms) and JS Self-Profiling API profiles, detecting the format from the
// content; keeps the events column-wise with interned strings; keeps the raw profile events
// (core.RawChunks); assembles them into profiles the way DevTools' SamplesHandler does; and builds
// DevTools' CPU profile model for each profiled thread (CPUProfileDataModel).
//
// The reader is a single streaming pass: a pull tokenizer over a refillable window decodes one
// event at a time straight into the columns, and gzip is inflated concurrently by another
// goroutine. Nothing is ever held both as text and as a tree, and bad input ends in an error
// naming the byte offset and event, or in counted warnings.
package load

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// File loads the trace or profile at path. Progress counts the bytes read from the file.
// Only regular files are read: opening a named pipe waits for a writer, which no cancel can
// interrupt, and a device or directory is no trace.
func File(ctx context.Context, path string, p *core.Progress) (*core.Trace, error) {
	if err := checkRegular(os.Stat(path)); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err := checkRegular(st, err); err != nil {
		return nil, err // it changed between the two looks
	}
	return Reader(ctx, f, st.Size(), p)
}

// ErrNotRegular is wrapped by the error for a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

func checkRegular(st os.FileInfo, err error) error {
	if err != nil {
		return err
	}
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&os.ModeSocket != 0:
		what = "a socket"
	case m&os.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%w: it is %s", ErrNotRegular, what)
}

// Reader loads a trace or profile from r. size is the number of bytes r will deliver, or -1 when
// unknown; p may be nil. Cancelling ctx stops the load promptly with ctx.Err().
func Reader(ctx context.Context, r io.Reader, size int64, p *core.Progress) (*core.Trace, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	allocatedBefore := heapAllocated()
	start := time.Now()

	if p != nil {
		p.Total.Store(size)
		p.Done.Store(0)
		p.SetStage("reading")
	}
	counted := &countingReader{r: r, p: p}
	br := bufio.NewReaderSize(counted, 64<<10)

	var src io.Reader = br
	gz := false
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz = true
		inf, err := newInflater(ctx, br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer inf.Close()
		src = inf
	}

	mem := newBudget(size, gz)
	defer paceGC()()
	l := newLoader(ctx, src, mem)
	l.takeLater, l.gzip = true, gz
	if err := readAll(l); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, err
	}
	tr := l.tr
	readDur := time.Since(start)
	tr.Stats.FileBytes = counted.n
	tr.Stats.JSONBytes = l.s.offset()
	tr.Stats.Gzip = gz
	tr.Stats.MemoryBudget = mem.limit
	tr.Stats.Stages = append(tr.Stats.Stages, core.StageTime{Name: "read", Dur: readDur})

	if p != nil {
		p.SetStage("assembling profiles")
	}
	if tr.Kind == core.InputTrace {
		th := time.Now()
		if err := halveRawSamples(&tr.Chunks, mem); err != nil {
			return nil, err
		}
		tr.Stats.Stages = append(tr.Stats.Stages, core.StageTime{Name: "halve raw samples", Dur: time.Since(th)})
	}
	// The event columns are copied into the trace while the profiles are built: neither reads
	// the other, and the copy (mostly page faults of its fresh memory) then costs no time. A
	// trace's bounds come from its events and chunk records, which the profiles' build only
	// reads: they are found there too, after the copy.
	taken := make(chan error, 1)
	engineLo, engineHi := math.Inf(1), math.Inf(-1)
	go func() {
		background.Lower()
		err := l.takeEvents()
		if err == nil && tr.Kind == core.InputTrace {
			engineLo, engineHi = core.EngineBounds(tr)
		}
		taken <- err
	}()
	err := buildProfiles(ctx, tr, mem)
	if takeErr := <-taken; err == nil {
		err = takeErr
	}
	if err != nil {
		return nil, err
	}
	finishBounds(tr, engineLo, engineHi)

	tr.Stats.Events = tr.Events.Len()
	tr.Stats.Chunks = tr.Chunks.Len()
	for i := range tr.Profiles {
		tr.Stats.Nodes += len(tr.Profiles[i].NodeID)
		tr.Stats.Samples += len(tr.Profiles[i].Samples)
	}
	tr.Stats.TotalAlloc = heapAllocated() - allocatedBefore
	return tr, nil
}

// heapAllocated is the bytes allocated on the heap since the process began (MemStats.TotalAlloc).
// It is read from runtime/metrics because runtime.ReadMemStats stops the world, and a stop waits
// for every goroutine holding a P: in a window, a load's lowered threads (background.Lower) wait
// for the CPU behind the frames' threads. In execution traces of framebench's "second" (a second
// load of gen-trace-large while keys are held) this stop took 0.2 ms, and 52 ms once (in a trial
// build with 8 Ps, so more lowered threads to stop), with the window's goroutine stopped all along.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// readAll runs the reader, turning a load over its memory budget into an error.
func readAll(l *loader) (err error) {
	defer catchBudget(&err)
	return l.read()
}

// buildProfiles assembles the raw chunks and builds one model per profiled thread.
func buildProfiles(ctx context.Context, tr *core.Trace, mem *budget) (err error) {
	defer catchBudget(&err)
	t0 := time.Now()
	asm, err := assemble(ctx, tr, &tr.Warnings, mem)
	if err != nil {
		return err
	}
	t1 := time.Now()
	tr.Stats.Stages = append(tr.Stats.Stages, core.StageTime{Name: "assemble", Dur: t1.Sub(t0)})
	if err := buildModels(ctx, tr, asm, mem); err != nil {
		return err
	}
	tr.Stats.Stages = append(tr.Stats.Stages, core.StageTime{Name: "model", Dur: time.Since(t1)})
	return nil
}

// modelWorkers is how many goroutines build a trace's models; a variable so that the tests can
// compare the builds side by side and in turn on any machine.
var modelWorkers = background.Workers

// buildModels builds the model of each assembled profile into tr.Profiles. A trace's profiles
// are built side by side on up to modelWorkers() goroutines, the largest first: on a trace of
// several profiled threads the models were the one stage of a load that left all cores but one
// idle (80 ms of gen-trace-large's two). A model only reads the trace, and a profile's raw copy
// only the chunks; each model's warnings are kept apart and added in profile order, so that the
// trace's warnings read as a build in turn leaves them. A bare profile (one model, whose build
// lets go of the chunks' samples) and a single profile are built on the calling goroutine.
func buildModels(ctx context.Context, tr *core.Trace, asm []Assembled, mem *budget) error {
	tr.Profiles = make([]core.ProfileModel, len(asm))
	workers := 1
	if tr.Kind == core.InputTrace {
		workers = min(modelWorkers(), len(asm))
	}
	// Once every profile has copied its lines and columns out of the chunks, a trace lets go of
	// them: after the last fill, before the models' samples are mapped and sorted.
	var unfilled atomic.Int32
	unfilled.Store(int32(len(asm)))
	filled := func() {
		if unfilled.Add(-1) == 0 && tr.Kind == core.InputTrace && !keepRawSamples {
			dropRawPositions(&tr.Chunks, mem)
		}
	}
	if workers <= 1 {
		for i := range asm {
			if err := buildOneModel(ctx, tr, &asm[i], &tr.Warnings, mem, &tr.Profiles[i], filled); err != nil {
				return err
			}
		}
		return nil
	}
	warnings := make([]core.Warnings, len(asm))
	errs := make([]error, len(asm))
	order := make([]int, len(asm))
	for i := range order {
		order[i] = i
	}
	work := func(i int) int { return len(asm[i].Nodes) + asm[i].sizes.samples }
	slices.SortStableFunc(order, func(a, b int) int { return work(b) - work(a) })
	var next atomic.Int32
	var failed atomic.Bool // a model failed: the load ends with its error, the others are not needed
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			background.Lower()
			for k := int(next.Add(1)) - 1; k < len(order) && !failed.Load(); k = int(next.Add(1)) - 1 {
				i := order[k]
				if errs[i] = buildOneModel(ctx, tr, &asm[i], &warnings[i], mem, &tr.Profiles[i], filled); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i := range warnings {
		tr.Warnings.AddAll(&warnings[i])
	}
	return nil
}

// buildOneModel builds the model of a into out, collecting its warnings in w, and lets a's raw
// copy go before the next profile's is made; a load over its budget is returned as an error, as
// on the load's own goroutine. filled is called once a has copied what it needs from the chunks
// but the sample ids, which the model reads from them.
func buildOneModel(ctx context.Context, tr *core.Trace, a *Assembled, w *core.Warnings, mem *budget, out *core.ProfileModel, filled func()) (err error) {
	defer catchBudget(&err)
	a.fill(&tr.Chunks, mem, true)
	bare := tr.Kind != core.InputTrace && !keepRawSamples
	if bare {
		dropRawTimes(&tr.Chunks)
	}
	filled()
	m, err := buildModel(ctx, tr, a, w, mem)
	*a = Assembled{}
	if bare {
		dropRawSamples(&tr.Chunks)
	}
	if err != nil {
		return err
	}
	*out = m
	return nil
}

// keepRawSamples keeps a bare profile's raw samples and a trace's raw lines after the models are
// built, for the tests that compare DevTools' assembly with ours (Assemble).
var keepRawSamples = false

// dropRawTimes and dropRawSamples let go of the time deltas and timestamps of a bare profile's
// one record once they were copied out to build its model, and of its sample ids once the model
// has mapped them: only a trace's records are read again (by Lighthouse's collection). For a
// profile that is mostly samples they are 40 % of what the load holds. The record's spans
// become empty; its Has* flags still say which arrays it had.
func dropRawTimes(c *core.RawChunks) {
	c.Deltas, c.Stamps = core.Narrow[float64]{}, nil
	for i := range c.Len() {
		c.TimeDeltas[i], c.ProfileTimeDeltas[i], c.Timestamps[i] = core.Span{}, core.Span{}, core.Span{}
	}
}

func dropRawSamples(c *core.RawChunks) {
	c.SampleIDs = core.Narrow[int64]{}
	clear(c.Samples)
}

// dropRawPositions lets go of a trace's per-sample lines and columns once its models have them
// (ProfileModel.SampleLine): nothing reads them from the chunks again. A sample-heavy trace kept
// 16 MB of them twice. Where a node has positionTicks (a CpuProfile event may), which the models
// address in the same arena, it is kept. The records' spans become empty; their Has* flags still
// say which arrays they had.
func dropRawPositions(c *core.RawChunks, mem *budget) {
	if len(c.NodeTicks) > 0 {
		return
	}
	mem.release(4 * int64(cap(c.Positions)))
	c.Positions = nil
	clear(c.Lines)
	clear(c.Columns)
}

// halveRawSamples gives the sample ids and time deltas that a trace keeps for Lighthouse a second
// chance at 2 bytes a value: the reader fills them halved around AppendBias (pushNarrow), and
// widens one whose values fall outside that window too often, as the ids of a profile of more
// than 65535 nodes do; such an arena is halved again around where most of its values are
// (core.Narrow.Halve) when that makes it smaller, else it gives back its growth's spare room.
// It runs before the models are built, whose columns then take the room it frees; the two
// arenas are done side by side.
func halveRawSamples(c *core.RawChunks, mem *budget) error {
	idsDone := make(chan error, 1)
	go func() {
		background.Lower()
		idsDone <- halveNarrow(&c.SampleIDs, mem)
	}()
	err := halveNarrow(&c.Deltas, mem)
	if idsErr := <-idsDone; err == nil {
		err = idsErr
	}
	return err
}

func halveNarrow[T int64 | float64](n *core.Narrow[T], mem *budget) (err error) {
	defer catchBudget(&err)
	var zero T
	wideEntry := int64(unsafe.Sizeof(uint32(0)) + unsafe.Sizeof(zero))
	if n.Small == nil { // halved as it filled
		return nil
	}
	bias, escapes, ok := n.HalfPlan()
	if !ok {
		if spare := cap(n.Small) - len(n.Small); spare > len(n.Small)/8 {
			small := makeSlice[int32](mem, len(n.Small), len(n.Small))
			background.Copy(small, n.Small)
			mem.release(4 * int64(cap(n.Small)))
			n.Small = small
		}
		return nil
	}
	wide := len(n.Wide) + escapes
	half := makeSlice[int16](mem, 0, n.Len())
	wideAt, wideVals := makeSlice[uint32](mem, 0, wide), makeSlice[T](mem, 0, wide)
	mem.release(4*int64(cap(n.Small)) + wideEntry*int64(cap(n.Wide)))
	n.Halve(bias, half, wideAt, wideVals)
	return nil
}

// finishBounds settles the trace's bounds. A trace gets DevTools' own (engineLo and engineHi, from
// core.EngineBounds), so that times count from where the panel's do; where no event counts for the
// engine, and for profiles, the span of all events is widened by the profiles' spans. Empty bounds
// settle at 0.
func finishBounds(tr *core.Trace, engineLo, engineHi float64) {
	if tr.Kind == core.InputTrace {
		if lo, hi := engineLo, engineHi; lo <= hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			tr.MinTs, tr.MaxTs, tr.EventBounds = lo, hi, true
			return
		}
	}
	for i := range tr.Profiles {
		m := &tr.Profiles[i]
		for _, t := range [...]float64{m.StartTime, m.EndTime} {
			if !math.IsNaN(t) && !math.IsInf(t, 0) {
				tr.MinTs = min(tr.MinTs, t)
				tr.MaxTs = max(tr.MaxTs, t)
			}
		}
	}
	if tr.MinTs > tr.MaxTs {
		tr.MinTs, tr.MaxTs = 0, 0
	}
}

// countingReader reports the bytes read from the file to the progress.
type countingReader struct {
	r io.Reader
	p *core.Progress
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	if c.p != nil && n > 0 {
		c.p.Done.Add(int64(n))
	}
	return n, err
}

// errNotProfile is returned for input that is JSON but none of the known formats.
var errNotProfile = errors.New("not a Chrome trace, .cpuprofile or JS Self-Profiling profile")

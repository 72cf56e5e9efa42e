// Command scaletrace makes a bigger trace out of a real one for benchmarks, by the rules of the
// corpus's tools/scale_trace.py: N copies of every event, copy k with each integer pid moved to
// pid + k*1000000, written as one JSON array. It does in seconds what the Python script does in
// tens of minutes for the 2 GB trace of issue #18: each event is parsed once, then copied N times
// with only its pid rewritten.
//
//	go run ./scripts/scaletrace IN.json[.gz] OUT.json[.gz] --copies N
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	copies := flag.Int("copies", 2, "how many copies of every process")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: scaletrace IN.json[.gz] OUT.json[.gz] [--copies N]")
	}
	// The flag may come after the files, as scale_trace.py accepts it.
	var files []string
	args := os.Args[1:]
	for len(args) > 0 {
		if err := flag.CommandLine.Parse(args); err != nil {
			os.Exit(2)
		}
		args = flag.Args()
		if len(args) > 0 {
			files = append(files, args[0])
			args = args[1:]
		}
	}
	if len(files) != 2 || *copies < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := scale(files[0], files[1], *copies); err != nil {
		fmt.Fprintln(os.Stderr, "scaletrace:", err)
		os.Exit(1)
	}
}

// event is one trace event split around its pid's value: prefix, pid, suffix. hasPid is false
// when the event has no integer pid (it is then copied as it is).
type event struct {
	raw    []byte
	at     int // where the pid's value starts in raw
	end    int // where it ends
	pid    int64
	hasPid bool
}

func scale(src, dst string, copies int) error {
	events, err := readEvents(src)
	if err != nil {
		return err
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(dst, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 4<<20)
	bw.WriteByte('[')
	first := true
	var num []byte
	for k := range copies {
		for _, e := range events {
			if !first {
				bw.WriteString(",\n")
			}
			first = false
			if k == 0 || !e.hasPid {
				bw.Write(e.raw)
				continue
			}
			bw.Write(e.raw[:e.at])
			num = strconv.AppendInt(num[:0], e.pid+int64(k)*1000000, 10)
			bw.Write(num)
			bw.Write(e.raw[e.end:])
		}
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return f.Close()
}

// readEvents reads the trace's events: a JSON array, or an object's "traceEvents".
func readEvents(src string) ([]event, error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 1<<20)
	if strings.HasSuffix(src, ".gz") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		var obj struct {
			TraceEvents []json.RawMessage `json:"traceEvents"`
		}
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, err
		}
		list = obj.TraceEvents
	} else if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	if list == nil {
		return nil, errors.New("no trace events")
	}
	events := make([]event, len(list))
	for i, raw := range list {
		raw = compact(raw)
		e := event{raw: raw}
		if at, end, ok := pidValue(raw); ok {
			if pid, err := strconv.ParseInt(string(raw[at:end]), 10, 64); err == nil {
				e.at, e.end, e.pid, e.hasPid = at, end, pid, true
			}
		}
		events[i] = e
	}
	return events, nil
}

// compact drops the whitespace between tokens, as the Python script's separators do.
func compact(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// pidValue finds the value of the top-level "pid" key of a compact JSON object: its start and end.
func pidValue(raw []byte) (at, end int, ok bool) {
	depth := 0
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(raw) && raw[j] != '"' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			key := depth == 1 && j+1 < len(raw) && raw[j+1] == ':' && string(raw[i+1:j]) == "pid"
			i = j
			if key {
				at = j + 2
				end = at
				for end < len(raw) && raw[end] != ',' && raw[end] != '}' {
					end++
				}
				return at, end, true
			}
		}
	}
	return 0, 0, false
}

package integrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"

	"github.com/klauspost/compress/gzip"
)

// The largest references are 400-500 MB of JSON, mostly entries. encoding/json reads them at
// tens of MB/s, and `make test` runs under the race detector, which slows every byte loop of Go
// code tenfold. So this reader inflates with the system's gzip when there is one, finds string
// ends with bytes.IndexByte, decodes only the members it keeps, and stops after "threads".

// errStop ends a walk early once everything wanted has been read.
var errStop = errors.New("stop")

// gunzip returns the inflated content of a gzip file. The buffer is sized once from the gzip
// trailer (the content's length modulo 4 GiB), which saves regrowing half a gigabyte.
func gunzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Size() >= 4 {
		var tail [4]byte
		if _, err := f.ReadAt(tail[:], st.Size()-4); err == nil {
			size = int64(tail[0]) | int64(tail[1])<<8 | int64(tail[2])<<16 | int64(tail[3])<<24
		}
	}
	var r io.Reader
	if gz, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command(gz, "-dc", path)
		out, err := cmd.StdoutPipe()
		if err == nil && cmd.Start() == nil {
			defer cmd.Wait()
			r = out
		}
	}
	if r == nil {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = zr
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

// decodeReference reads a gzipped DevTools reference into a refDoc.
func decodeReference(path string) (*refDoc, error) {
	b, err := gunzip(path)
	if err != nil {
		return nil, err
	}
	var d refDoc
	names := map[string]string{}
	_, err = members(b, skipSpace(b, 0), func(key string, v int) (int, error) {
		switch key {
		case "input":
			return members(b, v, func(key string, v int) (int, error) {
				end, err := skipValue(b, v)
				if err == nil && key == "file" {
					d.Input.File, err = stringAt(b, v, end)
				}
				return end, err
			})
		case "threads":
			end, err := elements(b, v, func(v int) (int, error) {
				var th refThread
				end, err := members(b, v, func(key string, v int) (int, error) {
					if key == "entries" {
						return elements(b, v, func(v int) (int, error) {
							e, end, err := entryAt(b, v, names)
							th.Entries = append(th.Entries, e)
							return end, err
						})
					}
					end, err := skipValue(b, v)
					if err != nil {
						return 0, err
					}
					switch key {
					case "pid":
						th.Pid, err = strconv.ParseInt(string(b[v:end]), 10, 64)
					case "tid":
						th.Tid, err = strconv.ParseInt(string(b[v:end]), 10, 64)
					case "name":
						if b[v] == '"' {
							var s string
							s, err = stringAt(b, v, end)
							th.Name = &s
						}
					}
					return end, err
				})
				d.Threads = append(d.Threads, th)
				return end, err
			})
			if err != nil {
				return 0, err
			}
			return end, errStop // the profiles that follow are not compared
		}
		return skipValue(b, v)
	})
	if err != nil && !errors.Is(err, errStop) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

// entryAt decodes the entry object at b[v]. It is the innermost loop over half a gigabyte, so it
// walks the members itself rather than through members(), and go:norace keeps the race detector
// (which `make test` turns on) from instrumenting it: it touches only its own data.
//
//go:norace
func entryAt(b []byte, v int, names map[string]string) (refEntry, int, error) {
	e := refEntry{Line: -1}
	i := v + 1
	inFrame := false
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return e, 0, io.ErrUnexpectedEOF
		}
		switch b[i] {
		case ',':
			i++
			continue
		case '}':
			if !inFrame {
				return e, i + 1, nil
			}
			inFrame = false
			i++
			continue
		case '"':
		default:
			return e, 0, fmt.Errorf("member expected at byte %d", i)
		}
		kend, err := skipString(b, i)
		if err != nil {
			return e, 0, err
		}
		key := b[i+1 : kend-1]
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return e, 0, fmt.Errorf("':' expected at byte %d", i)
		}
		v := skipSpace(b, i+1)
		if !inFrame && string(key) == "callFrame" && v < len(b) && b[v] == '{' {
			inFrame = true
			i = v + 1
			continue
		}
		end, err := skipValue(b, v)
		if err != nil {
			return e, 0, err
		}
		raw := b[v:end]
		if inFrame {
			switch string(key) {
			case "url":
				e.URL, err = internedAt(b, v, end, names)
			case "lineNumber":
				e.Line, err = strconv.Atoi(string(raw))
			}
		} else {
			switch string(key) {
			case "kind":
				e.Kind, err = internedAt(b, v, end, names)
			case "name":
				e.Name, err = internedAt(b, v, end, names)
			case "ts":
				e.Ts, err = strconv.ParseFloat(string(raw), 64)
			case "dur":
				e.Dur, err = strconv.ParseFloat(string(raw), 64)
			case "depth":
				e.Depth, err = strconv.Atoi(string(raw))
			}
		}
		if err != nil {
			return e, 0, err
		}
		i = end
	}
}

// internedAt is stringAt with one copy per distinct string: names and urls repeat a lot.
//
//go:norace
func internedAt(b []byte, v, end int, names map[string]string) (string, error) {
	if s, ok := names[string(b[v:end])]; ok {
		return s, nil
	}
	s, err := stringAt(b, v, end)
	if err == nil {
		names[string(b[v:end])] = s
	}
	return s, err
}

// stringAt decodes the JSON string b[v:end] (null reads as "").
//
//go:norace
func stringAt(b []byte, v, end int) (string, error) {
	raw := b[v:end]
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	if string(raw) == "null" {
		return "", nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

//go:norace
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at b[i].
//
//go:norace
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, io.ErrUnexpectedEOF
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, io.ErrUnexpectedEOF
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' {
		i++
	}
	return i, nil
}

// skipString returns the index past the string starting at b[i]. A quote ends it unless an odd
// number of backslashes precedes it.
//
//go:norace
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; ; {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, io.ErrUnexpectedEOF
		}
		q += j
		k := q
		for k > i+1 && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// members calls fn for each member of the object at b[i] with the member's key and the index of
// its value; fn returns the index just past the value. members returns the index past the '}'.
func members(b []byte, i int, fn func(key string, v int) (int, error)) (int, error) {
	if i >= len(b) || b[i] != '{' {
		return 0, fmt.Errorf("object expected at byte %d", i)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		end, err := skipString(b, i)
		if err != nil {
			return 0, err
		}
		key := string(b[i+1 : end-1])
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, fmt.Errorf("':' expected at byte %d", i)
		}
		if i, err = fn(key, skipSpace(b, i+1)); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, io.ErrUnexpectedEOF
		}
		if b[i] == '}' {
			return i + 1, nil
		}
		if b[i] != ',' {
			return 0, fmt.Errorf("',' or '}' expected at byte %d", i)
		}
		i = skipSpace(b, i+1)
	}
}

// elements calls fn for each element of the array at b[i]; like members otherwise.
func elements(b []byte, i int, fn func(v int) (int, error)) (int, error) {
	if i >= len(b) || b[i] != '[' {
		return 0, fmt.Errorf("array expected at byte %d", i)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = fn(i); err != nil {
			return 0, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, io.ErrUnexpectedEOF
		}
		if b[i] == ']' {
			return i + 1, nil
		}
		if b[i] != ',' {
			return 0, fmt.Errorf("',' or ']' expected at byte %d", i)
		}
		i = skipSpace(b, i+1)
	}
}

package integrate

import (
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/valyala/fastjson"
)

// The largest references are 400-500 MB of JSON, mostly entries. encoding/json reads them at
// tens of MB/s; this reader walks the document with a byte-level skipper and parses only the
// pieces it keeps (the input name, each thread's header and each entry) with fastjson.

// decodeReference reads a gzipped DevTools reference into a refDoc.
func decodeReference(path string) (*refDoc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var d refDoc
	var p fastjson.Parser
	i := skipSpace(b, 0)
	_, err = members(b, i, func(key string, v int) (int, error) {
		switch key {
		case "input":
			end, err := skipValue(b, v)
			if err != nil {
				return 0, err
			}
			in, err := p.ParseBytes(b[v:end])
			if err != nil {
				return 0, err
			}
			d.Input.File = string(in.GetStringBytes("file"))
			return end, nil
		case "threads":
			return elements(b, v, func(v int) (int, error) {
				var th refThread
				end, err := members(b, v, func(key string, v int) (int, error) {
					if key == "entries" {
						return elements(b, v, func(v int) (int, error) {
							end, err := skipValue(b, v)
							if err != nil {
								return 0, err
							}
							o, err := p.ParseBytes(b[v:end])
							if err != nil {
								return 0, err
							}
							th.Entries = append(th.Entries, entryFrom(o))
							return end, nil
						})
					}
					end, err := skipValue(b, v)
					if err != nil {
						return 0, err
					}
					switch key {
					case "pid", "tid", "name":
						val, err := p.ParseBytes(b[v:end])
						if err != nil {
							return 0, err
						}
						switch key {
						case "pid":
							th.Pid = val.GetInt64()
						case "tid":
							th.Tid = val.GetInt64()
						default:
							if val.Type() == fastjson.TypeString {
								s := string(val.GetStringBytes())
								th.Name = &s
							}
						}
					}
					return end, nil
				})
				d.Threads = append(d.Threads, th)
				return end, err
			})
		}
		return skipValue(b, v)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

func entryFrom(o *fastjson.Value) refEntry {
	e := refEntry{
		Kind:  string(o.GetStringBytes("kind")),
		Name:  string(o.GetStringBytes("name")),
		Ts:    o.GetFloat64("ts"),
		Dur:   o.GetFloat64("dur"),
		Depth: o.GetInt("depth"),
	}
	if cf := o.Get("callFrame"); cf != nil && cf.Type() == fastjson.TypeObject {
		e.CallFrame = &refFrame{URL: string(cf.GetStringBytes("url"))}
		if ln := cf.Get("lineNumber"); ln != nil && ln.Type() == fastjson.TypeNumber {
			l := ln.GetInt()
			e.CallFrame.LineNumber = &l
		}
	}
	return e
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at b[i].
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

func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, io.ErrUnexpectedEOF
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
			return 0, err
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

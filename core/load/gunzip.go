package load

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/flate"
)

// gunzip reads a gzip stream of one or more members (RFC 1952) as one. It parses the member
// headers itself: the library's reader refuses a file name or comment longer than 512 bytes,
// which gzip itself accepts. Each member's CRC-32 and length are checked against its trailer.
type gunzip struct {
	r      *bufio.Reader
	fr     io.ReadCloser // the current member's inflater; nil between members
	crc    uint32
	size   uint32
	member int
	err    error
}

var (
	errGzipHeader   = errors.New("invalid gzip header")
	errGzipChecksum = errors.New("gzip checksum mismatch: the data is damaged")
	errGzipTrailing = errors.New("data after the gzip stream that is not gzip")
)

func newGunzip(r *bufio.Reader) (*gunzip, error) {
	z := &gunzip{r: r}
	if err := z.header(); err != nil {
		return nil, err
	}
	return z, nil
}

// header reads a member header and starts inflating its data.
func (z *gunzip) header() error {
	var h [10]byte
	if _, err := io.ReadFull(z.r, h[:]); err != nil {
		return noEOF(err)
	}
	if h[0] != 0x1f || h[1] != 0x8b || h[2] != 8 {
		return errGzipHeader
	}
	flg := h[3]
	if flg&0xe0 != 0 {
		return errGzipHeader
	}
	if flg&4 != 0 { // FEXTRA
		var n [2]byte
		if _, err := io.ReadFull(z.r, n[:]); err != nil {
			return noEOF(err)
		}
		if _, err := z.r.Discard(int(binary.LittleEndian.Uint16(n[:]))); err != nil {
			return noEOF(err)
		}
	}
	for _, bit := range [...]byte{8, 16} { // FNAME, FCOMMENT: zero-terminated, of any length
		if flg&bit == 0 {
			continue
		}
		for {
			c, err := z.r.ReadByte()
			if err != nil {
				return noEOF(err)
			}
			if c == 0 {
				break
			}
		}
	}
	if flg&2 != 0 { // FHCRC
		if _, err := z.r.Discard(2); err != nil {
			return noEOF(err)
		}
	}
	z.member++
	z.crc, z.size = 0, 0
	if z.fr == nil {
		z.fr = flate.NewReader(z.r)
	} else if err := z.fr.(flate.Resetter).Reset(z.r, nil); err != nil {
		return err
	}
	return nil
}

// noEOF turns an end of input inside a header or trailer into io.ErrUnexpectedEOF: the stream is
// cut short.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (z *gunzip) Read(p []byte) (int, error) {
	for z.err == nil {
		n, err := z.fr.Read(p)
		z.crc = crc32.Update(z.crc, crc32.IEEETable, p[:n])
		z.size += uint32(n)
		if err == io.EOF {
			z.err = z.endMember()
		} else if err != nil {
			z.err = noEOF(err)
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, z.err
}

// endMember checks the trailer and starts the next member, if any (io.EOF when none).
func (z *gunzip) endMember() error {
	var t [8]byte
	if _, err := io.ReadFull(z.r, t[:]); err != nil {
		return noEOF(err)
	}
	if binary.LittleEndian.Uint32(t[:4]) != z.crc || binary.LittleEndian.Uint32(t[4:]) != z.size {
		return errGzipChecksum
	}
	magic, err := z.r.Peek(2)
	if len(magic) == 0 && err == io.EOF {
		return io.EOF
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return errGzipTrailing
	}
	return z.header()
}

func (z *gunzip) Close() error { return z.fr.Close() }

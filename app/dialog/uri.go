package dialog

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// PathFromURI turns a local file:// URI, as the desktop portal and macOS's "open document" events
// hand them out, into a file path. Percent escapes are decoded; '+' stays a plus sign, since in a
// URI path it never meant a space. URIs of other schemes, of other hosts, or with a query or a
// fragment (a raw '#' or '?' that should have been escaped) are refused rather than guessed at.
func PathFromURI(uri string) (string, error) {
	return pathFromURI(uri, filepath.Separator == '\\')
}

// pathFromURI is PathFromURI with the platform made explicit, so both path styles can be tested.
func pathFromURI(uri string, windows bool) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("not a file URI: %w", err)
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", fmt.Errorf("not a file URI: %q", uri)
	}
	if u.Opaque != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", fmt.Errorf("malformed file URI (unescaped '?' or '#', or no slash after file:): %q", uri)
	}
	host := u.Host
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	p := u.Path
	if p == "" || (p == "/" && host == "") {
		return "", fmt.Errorf("file URI names no file: %q", uri)
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("file URI contains a NUL byte: %q", uri)
	}
	if !windows {
		if host != "" {
			return "", fmt.Errorf("file URI on another host %q: %q", host, uri)
		}
		return p, nil
	}
	if host != "" {
		// file://server/share/x is the UNC path \\server\share\x.
		return `\\` + host + strings.ReplaceAll(p, "/", `\`), nil
	}
	// file:///C:/x has the path "/C:/x"; drop the slash before the drive letter.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isASCIILetter(p[1]) {
		p = p[1:]
	}
	return strings.ReplaceAll(p, "/", `\`), nil
}

func isASCIILetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

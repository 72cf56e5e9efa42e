// Package macos holds the macOS bundle files; this test checks that bundle.sh assembles a bundle
// whose Info.plist is sound, which can be done without a Mac.
package macos

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// plistValue decodes the property-list elements the bundle uses: dict, array, string, true, false.
func plistValue(dec *xml.Decoder, start xml.StartElement) (any, error) {
	switch start.Name.Local {
	case "string", "integer", "real", "date":
		var s string
		err := dec.DecodeElement(&s, &start)
		return s, err
	case "true", "false":
		return start.Name.Local == "true", dec.Skip()
	case "array":
		var out []any
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				v, err := plistValue(dec, t)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			case xml.EndElement:
				return out, nil
			}
		}
	case "dict":
		out := map[string]any{}
		key := ""
		for {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			switch t := tok.(type) {
			case xml.StartElement:
				if t.Name.Local == "key" {
					if err := dec.DecodeElement(&key, &t); err != nil {
						return nil, err
					}
					continue
				}
				if key == "" {
					return nil, errors.New("value without a key")
				}
				if _, dup := out[key]; dup {
					return nil, errors.New("duplicate key " + key)
				}
				v, err := plistValue(dec, t)
				if err != nil {
					return nil, err
				}
				out[key], key = v, ""
			case xml.EndElement:
				return out, nil
			}
		}
	}
	return nil, errors.New("unexpected <" + start.Name.Local + ">")
}

func readPlist(t *testing.T, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			t.Fatal("no <plist>")
		}
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == "plist" {
			for {
				tok, err := dec.Token()
				if err != nil {
					t.Fatal(err)
				}
				if s, ok := tok.(xml.StartElement); ok {
					v, err := plistValue(dec, s)
					if err != nil {
						t.Fatal(err)
					}
					root, ok := v.(map[string]any)
					if !ok {
						t.Fatalf("the plist root is %T, want a dict", v)
					}
					return root
				}
			}
		}
	}
}

func TestBundle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bundle.sh needs a POSIX shell")
	}
	app := filepath.Join(t.TempDir(), "flamedesk.app")
	fakeBinary := filepath.Join(t.TempDir(), "flamedesk")
	if err := os.WriteFile(fakeBinary, []byte("not really Mach-O"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "bundle.sh", fakeBinary, app, "v1.4.2-7-gdeadbee-dirty").CombinedOutput()
	if err != nil {
		t.Fatalf("bundle.sh: %v\n%s", err, out)
	}
	p := readPlist(t, filepath.Join(app, "Contents", "Info.plist"))
	if p["CFBundleShortVersionString"] != "1.4.2" || p["CFBundleVersion"] != "1.4.2" {
		t.Errorf("versions %v / %v, want 1.4.2", p["CFBundleShortVersionString"], p["CFBundleVersion"])
	}
	if p["CFBundlePackageType"] != "APPL" {
		t.Errorf("CFBundlePackageType = %v", p["CFBundlePackageType"])
	}
	exe, _ := p["CFBundleExecutable"].(string)
	if info, err := os.Stat(filepath.Join(app, "Contents", "MacOS", exe)); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("executable %q missing or not executable: %v", exe, err)
	}
	icon, _ := p["CFBundleIconFile"].(string)
	if _, err := os.Stat(filepath.Join(app, "Contents", "Resources", icon+".icns")); err != nil {
		t.Errorf("icon %q: %v", icon, err)
	}

	// Every content type a document type names is either a system type or one declared here, and
	// the declared .cpuprofile type carries its extension.
	declared := map[string][]string{}
	imports, _ := p["UTImportedTypeDeclarations"].([]any)
	for _, d := range imports {
		decl := d.(map[string]any)
		tags, _ := decl["UTTypeTagSpecification"].(map[string]any)
		var exts []string
		for _, e := range tags["public.filename-extension"].([]any) {
			exts = append(exts, e.(string))
		}
		declared[decl["UTTypeIdentifier"].(string)] = exts
	}
	system := []string{"public.json", "org.gnu.gnu-zip-archive"}
	var handled []string
	docTypes, _ := p["CFBundleDocumentTypes"].([]any)
	for _, d := range docTypes {
		doc := d.(map[string]any)
		if doc["CFBundleTypeRole"] != "Viewer" {
			t.Errorf("%v: role %v, want Viewer", doc["CFBundleTypeName"], doc["CFBundleTypeRole"])
		}
		for _, ct := range doc["LSItemContentTypes"].([]any) {
			ct := ct.(string)
			if _, ok := declared[ct]; !ok && !slices.Contains(system, ct) {
				t.Errorf("document type %s is neither declared nor a known system type", ct)
			}
			handled = append(handled, ct)
		}
	}
	for _, want := range []string{"org.flamedesk.cpuprofile", "public.json", "org.gnu.gnu-zip-archive"} {
		if !slices.Contains(handled, want) {
			t.Errorf("no document type for %s", want)
		}
	}
	if exts := declared["org.flamedesk.cpuprofile"]; !slices.Equal(exts, []string{"cpuprofile"}) {
		t.Errorf("org.flamedesk.cpuprofile extensions = %v", exts)
	}
	if pkg, err := os.ReadFile(filepath.Join(app, "Contents", "PkgInfo")); err != nil || !strings.HasPrefix(string(pkg), "APPL") {
		t.Errorf("PkgInfo = %q, %v", pkg, err)
	}
}

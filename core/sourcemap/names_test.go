package sourcemap

import "testing"

func TestCleanSource(t *testing.T) {
	for in, want := range map[string]string{
		"webpack://my-app/./src/a.ts":        "src/a.ts",
		"webpack:///./src/a.ts":              "src/a.ts",
		"webpack://my-app/src/deep/../a.ts":  "src/a.ts",
		"../../gen/src/text.ts":              "gen/src/text.ts",
		"./src/text.ts":                      "src/text.ts",
		"src/text.ts":                        "src/text.ts",
		"file:///home/u/app/src/main.ts":     "/home/u/app/src/main.ts",
		"<anon>":                             "<anon>",
		"..":                                 "..",
		"https://cdn.example.com/lib/x.js":   "https://cdn.example.com/lib/x.js",
		"rollup://localhost/src/plugin.ts":   "src/plugin.ts",
		"vite://app/node_modules/react/x.js": "node_modules/react/x.js",
	} {
		if got := cleanSource(in); got != want {
			t.Errorf("cleanSource(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDeclaredName(t *testing.T) {
	for in, want := range map[string]string{
		"function countPrimesBelow(limit: number) {": "countPrimesBelow",
		" function  $helper_1 (":                     "$helper_1",
		"async function load() {":                    "load",
		"function* gen() {":                          "gen",
		"function (a) {":                             "",
		"functional(x)":                              "",
		"const f = () => 1":                          "",
		"countPrimesBelow(":                          "",
	} {
		if got := declaredName(in); got != want {
			t.Errorf("declaredName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDataURLAndSourceMappingURL(t *testing.T) {
	for in, want := range map[string]string{
		"data:application/json;base64,eyJ2ZXJzaW9uIjozfQ==":           `{"version":3}`,
		"data:application/json;charset=utf-8;base64,eyJ2IjoxfQ":       `{"v":1}`,
		"data:application/json;charset=utf-8,%7B%22version%22%3A3%7D": `{"version":3}`,
	} {
		got, ok := decodeDataURL(in)
		if !ok || string(got) != want {
			t.Errorf("decodeDataURL(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := decodeDataURL("bundle.js.map"); ok {
		t.Error("a file name decoded as a data: URL")
	}
	text := "var a=1;\n//# sourceMappingURL=old.js.map\nvar b;\n//# sourceMappingURL=bundle.js.map\n"
	if got := sourceMappingURL(text); got != "bundle.js.map" {
		t.Errorf("sourceMappingURL = %q, want the last comment's", got)
	}
}

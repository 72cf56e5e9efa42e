module flamedesk

go 1.26.0

require (
	gioui.org v0.10.3
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible
	github.com/godbus/dbus/v5 v5.2.2
	github.com/klauspost/compress v1.20.3
	github.com/segmentio/asm v1.2.1
	github.com/valyala/fastjson v1.6.10
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
)

require (
	gioui.org/shader v1.0.9 // indirect
	github.com/go-text/typesetting v0.3.5 // indirect
	golang.org/x/exp/shiny v0.0.0-20250408133849-7e4ce0ab07d0 // indirect
	golang.org/x/net v0.48.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

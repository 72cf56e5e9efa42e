module flamedesk

go 1.26.0

require (
	gioui.org v0.10.3 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/valyala/fastjson v1.6.10 // indirect
	golang.org/x/image v0.47.0 // indirect
)

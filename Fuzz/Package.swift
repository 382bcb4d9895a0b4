// swift-tools-version:6.0
// The libFuzzer targets of Lectern: one executable per kind of untrusted input, each a thin
// wrapper around the main package's HostileInputHarness. Built and run by `make fuzz`
// (see Fuzz/README.md); never part of the normal build.
import PackageDescription

/// The fuzz targets, named after the `HostileInput` case they drive (`fuzz-<name>`).
let targets = [
    "lcp-license",
    "license-status",
    "audiobook-status",
    "audiobook-manifest",
    "audiobook-jwks",
    "epub-container",
    "epub-opf",
    "epub-nav",
    "epub-ncx",
    "epub-encryption",
    "rwpm-manifest",
    "zip-archive",
    "xhtml-layout",
    "toml-config",
    "cbz-comicinfo",
    "pdf-poppler",
    "opds1-feed",
    "opds2-feed",
    "opds-authentication",
    "opensearch-description",
    "http-request-head",
    "documents",
    "comic-archive",
    "mobi",
    "djvu",
    "annotations",
    "annotation-readium",
    "annotation-lectern-json",
    "annotation-koreader-lua",
]

let package = Package(
    name: "LecternFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Lectern", path: ".."),
    ],
    targets: [
        .target(name: "FuzzDriver", dependencies: [.product(name: "HostileInputHarness", package: "Lectern")]),
    ] + targets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: [
            "FuzzDriver", .product(name: "HostileInputHarness", package: "Lectern"),
        ])
    },
    swiftLanguageModes: [.v6]
)

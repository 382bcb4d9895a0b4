-- /books/Paper.sdr/metadata.pdf.lua
return {
    ["bookmarks"] = { [1] = { ["page"] = 3, ["notes"] = 'single \'quoted\'', ["datetime"] = "2024-02-01 10:00:00", }, },
    ["highlight"] = { [2] = { [1] = { ["text"] = "\x41\u{48}\z
        continued", ["pos0"] = { ["page"] = 2, ["x"] = -1.5e3, ["y"] = 0x1p4, }, }, }, },
    ["doc_props"] = { ["title"] = [[Paper]], ["language"] = nil, },
    ["stats"] = { ["pages"] = 10, ["highlights"] = true, ["notes"] = false, },
}

-- /books/Tale.sdr/metadata.epub.lua
return {
    ["annotations"] = {
        [1] = {
            ["chapter"] = "Book the First",
            ["color"] = "red",
            ["datetime"] = "2024-01-02 10:11:12",
            ["drawer"] = "lighten",
            ["note"] = "A note\
on two lines \27[2J",
            ["pos0"] = "/body/DocFragment[3]/body/p[2]/text().15",
            ["pos1"] = "/body/DocFragment[3]/body/p[2]/text().46",
            ["text"] = "it was the best of times",
        },
        [2] = {
            ["color"] = "blue",
            ["datetime"] = "2024-02-01 10:00:00",
            ["drawer"] = "underscore",
            ["page"] = 5,
            ["pos0"] = { ["page"] = 5, ["x"] = 72.25, ["y"] = 400, },
            ["pos1"] = { ["page"] = 5, ["x"] = 272, ["y"] = 412.5, },
            ["text"] = [==[caf\195\169 [[long]]]==],
        },
    },
    ["doc_props"] = { ["authors"] = "Charles Dickens", ["title"] = "A Tale of Two Cities", },
    ["partial_md5_checksum"] = "0123456789abcdef0123456789abcdef",
}

import Testing
@testable import TextLayout

/// MathML told as linear text (#29 item 6): formulas in the style of the IDPF linear-algebra
/// book, whose every `alttext` is "Alternative text not available".
@Suite struct MathMLTextTests {
    func linear(_ mathML: String, alttext: String = "Alternative text not available") throws -> String {
        let html = #"<p><math xmlns="http://www.w3.org/1998/Math/MathML" alttext="\#(alttext)">\#(mathML)</math></p>"#
        return try layout(html, width: 200).textLines.joined(separator: "\n")
    }

    @Test func formulasOfTheLinearAlgebraBookReadAsLinearText() throws {
        let cases: [(String, String)] = [
            ("<mfrac><mi>a</mi><mi>b</mi></mfrac>", "a/b"),
            ("<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mrow><mi>c</mi><mo>+</mo><mi>d</mi></mrow></mfrac>", "(a+b)/(c+d)"),
            ("<msup><mi>x</mi><mn>2</mn></msup>", "x²"),
            ("<msub><mi>x</mi><mi>i</mi></msub>", "xᵢ"),
            ("<msub><mi>a</mi><mrow><mi>i</mi><mo>,</mo><mi>j</mi></mrow></msub>", "a_(i,j)"),
            ("<msub><mi>x</mi><mi>q</mi></msub>", "x_q"),
            ("<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup>", "x₁²"),
            ("<msup><mi>e</mi><mrow><mi>i</mi><mi>θ</mi></mrow></msup>", "e^(iθ)"),
            ("<msqrt><mi>x</mi></msqrt>", "√x"),
            ("<msqrt><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup></msqrt>", "√(a²+b²)"),
            ("<mroot><mi>x</mi><mn>3</mn></mroot>", "∛x"),
            ("<mrow><mo>[</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr><mtr><mtd><mn>3</mn></mtd><mtd><mn>4</mn></mtd></mtr></mtable><mo>]</mo></mrow>",
             "[1 2; 3 4]"),
            ("<mfenced><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable></mfenced>",
             "(a b; c d)"),
            ("<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>", "[1 0; 0 1]"),
            ("<mrow><mi>A</mi><mi mathvariant=\"bold\">x</mi><mo>=</mo><mi mathvariant=\"bold\">b</mi></mrow>", "Ax = b"),
            ("<mrow><mi>x</mi><mo>=</mo><msup><mfenced><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow></mfenced><mn>2</mn></msup></mrow>", "x = (a+b)²"),
            ("<semantics><mrow><msup><mi>A</mi><mi>T</mi></msup></mrow><annotation encoding=\"application/x-tex\">A^T</annotation></semantics>", "Aᵀ"),
            ("<mrow><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub></mrow>", "∑ᵢ₌₁ⁿaᵢ"),
            ("<mover accent=\"true\"><mi>v</mi><mo>→</mo></mover>", "v⃗"),
            ("<mrow><mi>f</mi><mo>&#x2061;</mo><mo>(</mo><mi>x</mi><mo>)</mo></mrow>", "f (x)"),
        ]
        for (mathML, expected) in cases {
            let actual = try linear(mathML)
            #expect(actual == expected, "\(mathML)")
        }
    }

    @Test func alttextOnlyWhenItSaysSomethingAndTheMarkupShowsNothing() throws {
        #expect(try linear("<mi>x</mi>", alttext: "ex") == "x")
        #expect(try linear("", alttext: "x squared") == "x squared")
        #expect(try linear("", alttext: "Alternative text not available") == "[math]")
        #expect(!(try linear("<mi>y</mi>")).contains("Alternative text"))
    }

    @Test func deepNestingIsBounded() throws {
        let deep = String(repeating: "<mrow>", count: 400) + "<mi>z</mi>" + String(repeating: "</mrow>", count: 400)
        #expect(try linear(deep) == "z")
    }
}

import Foundation
import Testing
import TestSupport

/// `lectern render` shows MathML as linear text (#29 item 6), never the book's
/// "Alternative text not available".
@Suite struct MathRenderTests {
    let lectern = LecternProcess()

    @Test func w3cMathMLSampleRendersTheFormula() throws {
        let result = try lectern.run(["render", Fixtures.sample("epub/w3c-cnt-mathml-support.epub")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("x = (a+b)²"), "\(result.stdout)")
        #expect(!result.stdout.contains("[math"))
    }

    @Test func linearAlgebraStyleFormulasRenderAsLinearText() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-math-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("linear-algebra.epub").path
        func math(_ body: String) -> String {
            #"<p><math xmlns="http://www.w3.org/1998/Math/MathML" alttext="Alternative text not available">\#(body)</math></p>"#
        }
        let body = [
            math("<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mrow><mi>c</mi><mo>+</mo><mi>d</mi></mrow></mfrac>"),
            math("<mrow><msub><mi>x</mi><mi>i</mi></msub><mo>=</mo><msqrt><mi>y</mi></msqrt><mo>+</mo><mroot><mi>z</mi><mn>3</mn></mroot></mrow>"),
            math("<mrow><mi>A</mi><mo>=</mo><mfenced open=\"[\" close=\"]\"><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr>"
                 + "<mtr><mtd><mn>3</mn></mtd><mtd><mn>4</mn></mtd></mtr></mtable></mfenced></mrow>"),
            math("<semantics><msubsup><mi>v</mi><mn>1</mn><mi>T</mi></msubsup><annotation encoding=\"TeX\">v_1^T</annotation></semantics>"),
        ].joined()
        try TestEPUBs.write(title: "Linear Algebra", body: body, to: path)
        let result = try lectern.run(["render", path, "--width", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in ["(a+b)/(c+d)", "xᵢ = √y+∛z", "A = [1 2; 3 4]", "v₁ᵀ"] {
            #expect(lines.contains(expected), "\(expected) in \(result.stdout)")
        }
        #expect(!result.stdout.contains("Alternative text"))
    }
}

import Annotations
import FoundationEssentials
import Testing

@Suite struct AnnotationModelTests {
    @Test func aNewAnnotationHasALowerCaseUUIDAndWasModifiedWhenMade() {
        let made = Date(timeIntervalSince1970: 1_700_000_000)
        let annotation = Annotation(target: AnnotationTarget(href: "OEBPS/ch1.xhtml"), created: made)
        #expect(annotation.id.count == 36)
        #expect(annotation.id == annotation.id.lowercased())
        #expect(annotation.modified == made)
        #expect(!annotation.deleted)
        #expect(Annotation(target: annotation.target).id != annotation.id)
    }

    @Test func colorsAndStylesAreTheReadiumNames() {
        #expect(HighlightColor.allCases.map(\.rawValue) == ["yellow", "green", "blue", "pink", "orange", "purple"])
        #expect(HighlightStyle(rawValue: "underline") == .underline)
        #expect(HighlightStyle(rawValue: "outline") == nil)
    }
}

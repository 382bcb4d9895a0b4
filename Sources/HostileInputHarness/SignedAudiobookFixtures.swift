import FoundationEssentials

/// The fixed halves of the signed-audiobook inputs: when the fuzzer mutates a manifest, the key
/// set is the issuer's real one, and when it mutates a key set, the manifest is a real signed
/// one (samples `audiobook-drm/feedbooks_0.json` and `jwks_0.json` of the shared corpus,
/// Apache-2.0, ThePalaceProject/android-audiobook).
enum SignedAudiobookFixtures {
    /// Where the Cantook issuer's key set is published (the default trusted issuer).
    static let keySetURL = "https://listen.cantookaudio.com/.well-known/jwks.json"
    /// The `license` link of the sample manifests.
    static let licenseStatusURL = "http://example.com/license/status"
    /// 2020-03-01T00:00:00Z, inside the rights period of the signed sample (2020-02-01 to
    /// 2020-03-29) and of ``manifestWithLicenseLink``, so that the checks go past the rights.
    static let withinSignedManifestRights = Date(timeIntervalSince1970: 1_583_020_800)
    static let withinRightsPeriod = withinSignedManifestRights

    /// `feedbooks_0.json`: signed by Cantook (the signature does not verify with the real keys,
    /// but every key is tried against every canonical form).
    static let signedManifest = #"""
{
  "@context": "http://readium.org/webpub-manifest/context.jsonld",

  "readingOrder": [
    {
      "duration": 128,
      "title": "01 - Invocation",
      "href": "http://archive.org/download/gleams_of_sunshine_1607_librivox/gleamsofsunshine_01_chant.mp3",
      "bitrate": "120",
      "type": "audio/mpeg",
      "properties": {
        "encrypted": {
          "scheme": "http://www.feedbooks.com/audiobooks/access-restriction",
          "profile": "https://www.cantookaudio.com"
        }
      }
    }
  ],

  "links": [
    {
      "href": "http://archive.org/services/img/gleams_of_sunshine_1607_librivox",
      "rel": "cover",
      "width": 180,
      "height": 180,
      "type": "image/jpeg"
    },
    {
      "rel": "self",
      "href": "https://api.archivelab.org/books/gleams_of_sunshine_1607_librivox/opds_audio_manifest",
      "type": "application/audiobook+json"
    },
    {
      "href": "http://example.com/license/status",
      "type": "application/vnd.readium.license.status.v1.0+json",
      "rel": "license"
    }
  ],

  "metadata": {
    "identifier": "http://archive.org/details/gleams_of_sunshine_1607_librivox",
    "@type": "https://schema.org/Audiobook",
    "author": "Joseph Horatio Chant",
    "tracks": 172,
    "duration": 22173,
    "title": "Gleams of Sunshine",
    "language": "en",

    "http://www.feedbooks.com/audiobooks/signature": {
      "algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      "issuer": "https://www.cantookaudio.com",
      "value": "eKLux/4TtJc6VH6RTOi5lBMh9mT1j2y1z50OruWZgy8QjyPMjDV+aVZWUt7OUTinUHQfWNPBB6DxixgTZ07TQsix4uScL2dJZRQTjUKKHv3he7oJdOkcxjWDh51Q6U2KbDfC2MReG/+Qa4meoI5BN0Q8FKIEFMDZJ2KQTSRj13ZETaD0Nwz+8d6IN7csQGFJHvW/bBJthty+eZNzIr+VE0Kf02OS4yX+wvsExfRabvHlfimT1uUTWc89CgPAuM+Y7vdtjb+B3YFr7ibXATk6lQJkXzKol9ms6vkNwnvxzXwsQ+p1ZjejH1LOYADvedl/ItPrBGkhmq7bbUz91jUd+w=="
    },
    "http://www.feedbooks.com/audiobooks/rights": {
      "start": "2020-02-01T17:15:52Z",
      "end": "2020-03-29T17:15:52Z"
    }
  }
}
"""#

    /// `jwks_0.json`: the Cantook key set, one RSA-2048 key as `n`/`e` and as PEM.
    static let keySet = #"""
{
  "keys": [
    {
      "kty": "RSA",
      "e": "AQAB",
      "kid": "d82fcf13-96ba-47a3-b9bf-332b5d9dac89",
      "n": "7GcBZtUVccXneZdDu5KjhxUOo6cxqM718Uaiw6kZns-AGz_2B0MUs8rvh4EEkHK-w3BZu6ZjARAJlkQPy13dARZ35IXKpw7NSftVUPpsGxFJLbgZ3QLFAPsmecodLTW4S_zqzkbbw4iOGTj2hhMtqoGBss-MHu2Ng04cVfkQAe4rhCZou3sSTljxj18rCyR840Y6TB9g9j2MFk9QbM3e-N_LdQrOeRgvuU_3HhPXgVb7T2qMksWqaV_kEC3_FammKJNbZ0MxaDX5dNuUeJXCVVcYPrpKdrRlJjDCbcEyo2bZHmpmO0-hP0xbcig-EMP5NGBBmvejOl5UhwdW0UEWcw",
      "http://www.feedbooks.com/audiobooks/signature/pem-key": "-----BEGIN PUBLIC KEY-----\n MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA7GcBZtUVccXneZdDu5Kj\nhxUOo6cxqM718Uaiw6kZns+AGz/2B0MUs8rvh4EEkHK+w3BZu6ZjARAJlkQPy13d\nARZ35IXKpw7NSftVUPpsGxFJLbgZ3QLFAPsmecodLTW4S/zqzkbbw4iOGTj2hhMt\nqoGBss+MHu2Ng04cVfkQAe4rhCZou3sSTljxj18rCyR840Y6TB9g9j2MFk9QbM3e\n+N/LdQrOeRgvuU/3HhPXgVb7T2qMksWqaV/kEC3/FammKJNbZ0MxaDX5dNuUeJXC\nVVcYPrpKdrRlJjDCbcEyo2bZHmpmO0+hP0xbcig+EMP5NGBBmvejOl5UhwdW0UEW\ncwIDAQAB\n-----END PUBLIC KEY-----"
    }
  ]
}
"""#

    /// `lcp_license_status.json`: an active License Status Document.
    static let licenseStatus = #"""
{
  "id": "234-5435-3453-345354",
  "status": "active",
  "message": "Your license is currently active and has been used on one device.",
  "updated": {
    "license": "2016-08-05T00:00:00Z",
    "status": "2016-08-08T00:00:00Z"
  },
  "links": [
    {
      "rel": "license",
      "href": "https://example.org/license/35d9b2d6",
      "type": "application/vnd.readium.lcp.license.v1.0+json",
      "profile": "http://readium.org/lcp/basic-profile"
    },
    {
      "rel": "register",
      "href": "https://example.org/license/35d9b2d6/register{?id,name}",
      "type": "application/vnd.readium.license.status.v1.0+json",
      "templated": true
    },
    {
      "rel": "return",
      "href": "https://example.org/license/35d9b2d6/return{?id,name}",
      "type": "application/vnd.readium.license.status.v1.0+json",
      "templated": true
    },
    {
      "rel": "renew",
      "href": "https://example.org/license/35d9b2d6/renew",
      "type": "text/html"
    },
    {
      "rel": "renew",
      "href": "https://example.org/license/35d9b2d6/renew{?end,id,name}",
      "type": "application/vnd.readium.license.status.v1.0+json",
      "templated": true
    }
  ],
  "potential_rights": {
    "end": "2014-09-13T00:00:00Z"
  },
  "events": [
    {
      "type": "register",
      "name": "eBook App (Android)",
      "timestamp": "2016-07-14T00:00:00Z",
      "id": "709e1380-3528-11e5-a2cb-0800200c9a66"
    }
  ]
}
"""#

    /// An unsigned manifest whose rights period covers ``withinRightsPeriod`` and whose
    /// `license` link names ``licenseStatusURL``, so that opening it reads the status document.
    static let manifestWithLicenseLink = #"""
{
  "@context": "http://readium.org/webpub-manifest/context.jsonld",
  "metadata": {
    "@type": "https://schema.org/Audiobook",
    "title": "Status probe",
    "http://www.feedbooks.com/audiobooks/rights": {"start": "2020-01-01T00:00:00Z", "end": "2021-01-01T00:00:00Z"}
  },
  "links": [
    {"rel": "license", "href": "http://example.com/license/status", "type": "application/vnd.readium.license.status.v1.0+json"}
  ],
  "readingOrder": [
    {"href": "track1.mp3", "type": "audio/mpeg", "duration": 10}
  ]
}
"""#
}

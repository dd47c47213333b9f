use vercmp::Version;

fn v(s: &str) -> Version {
    s.parse().unwrap()
}

#[test]
fn parses_core() {
    let x = v("1.22.333");
    assert_eq!((x.major, x.minor, x.patch), (1, 22, 333));
    assert!(x.pre.is_empty());
}

#[test]
fn parses_prerelease_and_build() {
    let x = v("2.0.0-rc.1+sha.5114f85");
    assert_eq!(x.pre, vec!["rc", "1"]);
    assert_eq!(x.build.as_deref(), Some("sha.5114f85"));
    assert_eq!(x.to_string(), "2.0.0-rc.1+sha.5114f85");
}

#[test]
fn rejects_malformed() {
    for s in ["1.2", "1.2.3.4", "01.2.3", "1.2.x", "1.2.3-", "1.2.3-a..b", ""] {
        assert!(s.parse::<Version>().is_err(), "{:?} parsed", s);
    }
}

#[test]
fn orders_by_core() {
    assert!(v("1.2.3") < v("1.2.10"));
    assert!(v("1.10.0") > v("1.9.9"));
    assert!(v("2.0.0") > v("1.99.99"));
}

#[test]
fn ignores_build_metadata() {
    assert_eq!(v("1.0.0+a").cmp(&v("1.0.0+b")), std::cmp::Ordering::Equal);
}

#[test]
fn release_follows_prerelease() {
    assert!(v("1.0.0-rc.1") < v("1.0.0"));
    assert!(v("1.0.0") > v("1.0.0-alpha"));
    assert!(v("1.0.0") < v("1.0.1-alpha"));
}

#[test]
fn numeric_identifiers_compare_as_numbers() {
    assert!(v("1.0.0-rc.2") < v("1.0.0-rc.10"));
    assert!(v("1.0.0-11") < v("1.0.0-beta"));
}

#[test]
fn orders_prerelease_chain() {
    let chain = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
    ];
    for pair in chain.windows(2) {
        assert!(v(pair[0]) < v(pair[1]), "{} should precede {}", pair[0], pair[1]);
    }
}

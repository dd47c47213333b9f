//! Semantic version numbers (semver.org 2.0.0): parsing `MAJOR.MINOR.PATCH[-PRE][+BUILD]` and
//! ordering versions by precedence.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A version. Build metadata is kept for display but never takes part in precedence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// The pre-release identifiers ("rc.1" is `["rc", "1"]`); empty for a release.
    pub pre: Vec<String>,
    pub build: Option<String>,
}

/// Why a string is not a version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid version: {}", self.0)
    }
}

impl std::error::Error for ParseError {}

fn number(part: &str, whole: &str) -> Result<u64, ParseError> {
    let leading_zero = part.len() > 1 && part.starts_with('0');
    if part.is_empty() || leading_zero || !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError(whole.to_string()));
    }
    part.parse().map_err(|_| ParseError(whole.to_string()))
}

impl FromStr for Version {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (rest, build) = match s.split_once('+') {
            Some((r, b)) => (r, Some(b.to_string())),
            None => (s, None),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((c, p)) => (c, p.split('.').map(String::from).collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        if pre.iter().any(|id| id.is_empty()) {
            return Err(ParseError(s.to_string()));
        }
        let parts: Vec<&str> = core.split('.').collect();
        if parts.len() != 3 {
            return Err(ParseError(s.to_string()));
        }
        Ok(Version {
            major: number(parts[0], s)?,
            minor: number(parts[1], s)?,
            patch: number(parts[2], s)?,
            pre,
            build,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if let Some(b) = &self.build {
            write!(f, "+{}", b)?;
        }
        Ok(())
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| self.pre.cmp(&other.pre))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

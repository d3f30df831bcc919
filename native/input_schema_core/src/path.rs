//! Paths kept as a chain of stack frames while walking, rendered only when an error needs one.

use crate::error::Path;
use std::io::Write;

#[derive(Clone, Copy)]
pub(crate) enum Segment<'p> {
    Root,
    /// `.name` in argument paths, `properties.name` in schema locations.
    Property(&'p [u8]),
    /// `[i]` in argument paths.
    Index(usize),
    /// `items` in schema locations.
    Items,
    /// `oneOf[i]` in schema locations.
    Branch(usize),
}

#[derive(Clone, Copy)]
pub(crate) struct Trail<'p> {
    parent: Option<&'p Trail<'p>>,
    segment: Segment<'p>,
}

pub(crate) const ROOT: Trail<'static> = Trail {
    parent: None,
    segment: Segment::Root,
};

impl<'p> Trail<'p> {
    pub fn child(&'p self, segment: Segment<'p>) -> Trail<'p> {
        Trail {
            parent: Some(self),
            segment,
        }
    }

    fn segments(&self) -> Vec<Segment<'p>> {
        let mut segments = vec![self.segment];
        let mut current = self.parent;
        while let Some(trail) = current {
            segments.push(trail.segment);
            current = trail.parent;
        }
        segments.reverse();
        segments
    }

    /// The length of `argument_path`, found without making it.
    pub fn argument_path_len(&self) -> usize {
        self.path_len_from(ARGUMENTS)
    }

    /// `argument_path`: `$arguments.a.b[1].c`: property names in their string form, unescaped.
    pub fn argument_path(&self) -> Path {
        self.path_from(ARGUMENTS)
    }

    /// The length of `path_from(root)`, found without making it.
    pub fn path_len_from(&self, root: &[u8]) -> usize {
        let mut length = root.len();
        let mut current = Some(self);
        while let Some(trail) = current {
            let mut counter = ByteCount(0);
            write_argument_segment(&mut counter, trail.segment);
            length += counter.0;
            current = trail.parent;
        }
        length
    }

    /// The path below `root` (`$arguments`, or `$` for a value that is no tool's arguments).
    pub fn path_from(&self, root: &[u8]) -> Path {
        let mut path = root.to_vec();
        for segment in self.segments() {
            write_argument_segment(&mut path, segment);
        }
        path
    }

    /// `properties.options.items.oneOf[1].properties.value`; empty for the root.
    pub fn schema_location(&self) -> Path {
        let mut path = Vec::new();
        for segment in self.segments() {
            let piece = match segment {
                Segment::Root => continue,
                Segment::Property(name) => [b"properties.".as_slice(), name].concat(),
                Segment::Items => b"items".to_vec(),
                Segment::Branch(index) => format!("oneOf[{index}]").into_bytes(),
                Segment::Index(index) => format!("[{index}]").into_bytes(),
            };
            if !path.is_empty() {
                path.push(b'.');
            }
            path.extend_from_slice(&piece);
        }
        path
    }
}

/// The root of argument paths.
pub const ARGUMENTS: &[u8] = b"$arguments";
/// The root of paths in a value validated without the tool boundary (`root: :any`).
pub const ANY_ROOT: &[u8] = b"$";

/// A path below `root` from segments held apart from any walk (an explicit stack's).
pub(crate) fn render_path(root: &[u8], segments: &[Segment<'_>]) -> Path {
    let mut path = root.to_vec();
    for segment in segments {
        write_argument_segment(&mut path, *segment);
    }
    path
}

/// Writes the part of an argument path that `segment` adds: `.name`, `[i]`, or nothing for
/// the segments only schema locations show. The one spelling of argument paths, which
/// `argument_path` writes and `argument_path_len` counts.
fn write_argument_segment(out: &mut impl Write, segment: Segment<'_>) {
    // Neither sink fails: a `Vec` grows, a count adds.
    let _ = match segment {
        Segment::Property(name) => out.write_all(b".").and_then(|()| out.write_all(name)),
        Segment::Index(index) => write!(out, "[{index}]"),
        Segment::Root | Segment::Items | Segment::Branch(_) => Ok(()),
    };
}

/// A sink that only counts the bytes written to it.
struct ByteCount(usize);

impl Write for ByteCount {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counted_length_is_the_written_one() {
        let property = ROOT.child(Segment::Property(b"name"));
        let items = property.child(Segment::Items);
        let first = items.child(Segment::Index(0));
        let branch = first.child(Segment::Branch(3));
        let tenth = branch.child(Segment::Index(10));
        let nested = tenth.child(Segment::Property("é".as_bytes()));
        for trail in [ROOT, property, items, first, branch, tenth, nested] {
            assert_eq!(trail.argument_path_len(), trail.argument_path().len());
        }
        assert_eq!(
            nested.argument_path(),
            "$arguments.name[0][10].é".as_bytes()
        );
    }
}

//! Paths kept as a chain of stack frames while walking, rendered only when an error needs one.

use crate::error::Path;

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
        let mut length = b"$arguments".len();
        let mut current = Some(self);
        while let Some(trail) = current {
            length += match trail.segment {
                Segment::Property(name) => 1 + name.len(),
                Segment::Index(index) => {
                    2 + index
                        .checked_ilog10()
                        .map_or(1, |digits| digits as usize + 1)
                }
                Segment::Root | Segment::Items | Segment::Branch(_) => 0,
            };
            current = trail.parent;
        }
        length
    }

    /// `$arguments.a.b[1].c`: property names in their string form, unescaped.
    pub fn argument_path(&self) -> Path {
        let mut path = b"$arguments".to_vec();
        for segment in self.segments() {
            match segment {
                Segment::Property(name) => {
                    path.push(b'.');
                    path.extend_from_slice(name);
                }
                Segment::Index(index) => path.extend_from_slice(format!("[{index}]").as_bytes()),
                Segment::Root | Segment::Items | Segment::Branch(_) => {}
            }
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

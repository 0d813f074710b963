//! The export's tables as Parquet (`pitchside-inspect export --parquet`): each CSV the export
//! wrote, read back and written column by column with types (whole numbers, flags, numbers,
//! text; an empty field is a null), so a dataframe library loads a folder of matches without
//! parsing text, and each value is the one in the CSV, which is `rcg2csv`'s.
//!
//! Made from the CSV rather than from the frames so that there is one definition of every
//! column: the two files cannot disagree. The page exports CSV only: the `parquet` crate
//! would add far more to the page's WebAssembly than the feature is worth there.

use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per row group: a full game's tracking table (about 6,000 shows) is one.
const ROW_GROUP: usize = 1 << 16;

#[derive(Debug, thiserror::Error)]
pub enum ParquetExportError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}, line {line}: column {column} holds {value:?}, not a {kind}")]
    Value {
        path: PathBuf,
        line: usize,
        column: String,
        value: String,
        kind: &'static str,
    },
    #[error("{path}, line {line}: {found} fields where the header has {want}")]
    Width {
        path: PathBuf,
        line: usize,
        found: usize,
        want: usize,
    },
    #[error("{path}: {source}")]
    Parquet {
        path: PathBuf,
        source: parquet::errors::ParquetError,
    },
}

/// A column's type, by its name in the tracking, player types and actions tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Flag,
    Number,
    Text,
}

impl Kind {
    pub fn of(column: &str) -> Kind {
        const TEXT: [&str; 8] = [
            "playmode",
            "l_name",
            "r_name",
            "side",
            "team",
            "action",
            "direction",
            "outcome",
        ];
        const INT: [&str; 15] = [
            "#",
            "id",
            "cycle",
            "stopped",
            "l_score",
            "l_pen_score",
            "r_score",
            "r_pen_score",
            "frame",
            "unum",
            "receiver",
            "assist",
            "end_frame",
            "shows",
            "count",
        ];
        const FLAG: [&str; 4] = ["completed", "through", "on_target", "won"];
        if TEXT.contains(&column) {
            Kind::Text
        } else if INT.contains(&column) || column.ends_with("_t") {
            Kind::Int
        } else if FLAG.contains(&column) {
            Kind::Flag
        } else {
            Kind::Number
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Int => "whole number",
            Kind::Flag => "0 or 1",
            Kind::Number => "number",
            Kind::Text => "text",
        }
    }
}

/// One field of a CSV line: its text, and whether it was quoted (a quoted empty field is
/// empty text; a bare empty one is no value).
struct Cell {
    text: String,
    quoted: bool,
}

/// The fields of one CSV line: `"…"` fields unquoted (`\` escapes, as `std::quoted` writes
/// them), the rest as they are.
fn fields(line: &str) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut cur = Cell {
        text: String::new(),
        quoted: false,
    };
    let mut chars = line.chars();
    let mut inside = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if inside => inside = false,
            '"' if cur.text.is_empty() && !cur.quoted => {
                inside = true;
                cur.quoted = true;
            }
            '\\' if inside => cur.text.extend(chars.next()),
            ',' if !inside => out.push(std::mem::replace(
                &mut cur,
                Cell {
                    text: String::new(),
                    quoted: false,
                },
            )),
            c => cur.text.push(c),
        }
    }
    out.push(cur);
    out
}

enum Values {
    Int(Vec<i64>),
    Flag(Vec<bool>),
    Number(Vec<f64>),
    Text(Vec<ByteArray>),
}

struct Column {
    values: Values,
    /// 1 where a value is, 0 for a null.
    defined: Vec<i16>,
}

impl Column {
    fn new(kind: Kind) -> Column {
        Column {
            values: match kind {
                Kind::Int => Values::Int(Vec::new()),
                Kind::Flag => Values::Flag(Vec::new()),
                Kind::Number => Values::Number(Vec::new()),
                Kind::Text => Values::Text(Vec::new()),
            },
            defined: Vec::new(),
        }
    }

    /// Takes one field; false if it is not of the column's kind.
    fn push(&mut self, cell: &Cell) -> bool {
        let field = cell.text.as_str();
        if field.is_empty() {
            match &mut self.values {
                // Quoted, empty text is a value (a team not yet named).
                Values::Text(v) if cell.quoted => {
                    v.push(ByteArray::from(""));
                    self.defined.push(1);
                }
                _ => self.defined.push(0),
            }
            return true;
        }
        let ok = match &mut self.values {
            Values::Int(v) => field.parse().map(|x| v.push(x)).is_ok(),
            Values::Flag(v) => match field {
                "0" => {
                    v.push(false);
                    true
                }
                "1" => {
                    v.push(true);
                    true
                }
                _ => false,
            },
            Values::Number(v) => field
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(|x| v.push(x))
                .is_some(),
            Values::Text(v) => {
                v.push(ByteArray::from(field));
                true
            }
        };
        if ok {
            self.defined.push(1);
        }
        ok
    }

    fn clear(&mut self) {
        self.defined.clear();
        match &mut self.values {
            Values::Int(v) => v.clear(),
            Values::Flag(v) => v.clear(),
            Values::Number(v) => v.clear(),
            Values::Text(v) => v.clear(),
        }
    }
}

fn schema(names: &[String], kinds: &[Kind]) -> Result<Type, parquet::errors::ParquetError> {
    let mut fields = Vec::with_capacity(names.len());
    for (name, kind) in names.iter().zip(kinds) {
        let b = match kind {
            Kind::Int => Type::primitive_type_builder(name, Physical::INT64),
            Kind::Flag => Type::primitive_type_builder(name, Physical::BOOLEAN),
            Kind::Number => Type::primitive_type_builder(name, Physical::DOUBLE),
            Kind::Text => Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
                .with_logical_type(Some(LogicalType::String)),
        };
        fields.push(Arc::new(b.with_repetition(Repetition::OPTIONAL).build()?));
    }
    Type::group_type_builder("table")
        .with_fields(fields)
        .build()
}

/// Writes `csv` (a table the export wrote) as Parquet to `out`; returns its rows.
pub fn csv_to_parquet(csv: &Path, out: &Path) -> Result<u64, ParquetExportError> {
    table_to_parquet(csv, out, None)
}

/// [`csv_to_parquet`], with the columns of `header_if_empty` (a header line) for an empty
/// file: the player types table of a log without types is empty, as `rcg2csv` writes it,
/// and its Parquet file still has the table's columns, with no row.
pub fn table_to_parquet(
    csv: &Path,
    out: &Path,
    header_if_empty: Option<&str>,
) -> Result<u64, ParquetExportError> {
    let mut text = std::fs::read_to_string(csv).map_err(|source| ParquetExportError::Read {
        path: csv.to_path_buf(),
        source,
    })?;
    if text.is_empty() {
        if let Some(h) = header_if_empty {
            text = h.to_owned();
        }
    }
    let pq = |source| ParquetExportError::Parquet {
        path: out.to_path_buf(),
        source,
    };
    let mut lines = text.lines();
    let names: Vec<String> = fields(lines.next().unwrap_or_default())
        .into_iter()
        .map(|c| c.text)
        .collect();
    let kinds: Vec<Kind> = names.iter().map(|n| Kind::of(n)).collect();
    let file = std::fs::File::create(out).map_err(|source| ParquetExportError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let props = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .set_created_by("pitchside-inspect export".into())
        .build();
    let mut writer = SerializedFileWriter::new(
        file,
        Arc::new(schema(&names, &kinds).map_err(pq)?),
        Arc::new(props),
    )
    .map_err(pq)?;
    let mut columns: Vec<Column> = kinds.iter().map(|k| Column::new(*k)).collect();
    let mut rows = 0u64;
    let mut in_group = 0usize;
    for (i, line) in lines.enumerate() {
        let f = fields(line);
        if f.len() != names.len() {
            return Err(ParquetExportError::Width {
                path: csv.to_path_buf(),
                line: i + 2,
                found: f.len(),
                want: names.len(),
            });
        }
        for (c, (col, v)) in columns.iter_mut().zip(&f).enumerate() {
            if !col.push(v) {
                return Err(ParquetExportError::Value {
                    path: csv.to_path_buf(),
                    line: i + 2,
                    column: names[c].clone(),
                    value: v.text.clone(),
                    kind: kinds[c].name(),
                });
            }
        }
        rows += 1;
        in_group += 1;
        if in_group == ROW_GROUP {
            write_group(&mut writer, &mut columns).map_err(pq)?;
            in_group = 0;
        }
    }
    if in_group > 0 || rows == 0 {
        write_group(&mut writer, &mut columns).map_err(pq)?;
    }
    writer.close().map_err(pq)?;
    Ok(rows)
}

fn write_group(
    writer: &mut SerializedFileWriter<std::fs::File>,
    columns: &mut [Column],
) -> Result<(), parquet::errors::ParquetError> {
    let mut group = writer.next_row_group()?;
    let mut it = columns.iter_mut();
    while let Some(mut w) = group.next_column()? {
        let Some(col) = it.next() else {
            return Err(parquet::errors::ParquetError::General(
                "more columns in the schema than in the table".into(),
            ));
        };
        let defs = Some(col.defined.as_slice());
        match &col.values {
            Values::Int(v) => w.typed::<Int64Type>().write_batch(v, defs, None)?,
            Values::Flag(v) => w.typed::<BoolType>().write_batch(v, defs, None)?,
            Values::Number(v) => w.typed::<DoubleType>().write_batch(v, defs, None)?,
            Values::Text(v) => w.typed::<ByteArrayType>().write_batch(v, defs, None)?,
        };
        w.close()?;
        col.clear();
    }
    group.close()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    fn fixture(rel: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures")
            .join(rel)
    }

    /// The Parquet file's value as the CSV writes it.
    fn as_csv(f: &Field) -> String {
        match f {
            Field::Null => String::new(),
            Field::Bool(b) => if *b { "1" } else { "0" }.into(),
            Field::Long(v) => v.to_string(),
            Field::Double(v) => {
                let mut s = String::new();
                rcss_formats::number::write_g6(&mut s, *v);
                s
            }
            Field::Str(s) => s.clone(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn every_value_of_a_real_game_reads_back_as_the_csv_has_it() {
        let dir = std::env::temp_dir().join(format!("pitchside-parquet-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let log = fixture("logs/penalty-shootout-v6/20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz");
        let opts = super::super::export::Options {
            tracking: true,
            actions: true,
            out: dir.clone(),
            split: None,
            seed: 0,
            jobs: 1,
            parquet: true,
        };
        let (done, errors) = super::super::export::export(&[log], &opts);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(done.len(), 1);
        for table in ["tracking", "player_types", "actions"] {
            let base = dir.join(format!("20261122132810-PEN_L_0_4-vs-PEN_R_0_2.{table}"));
            let csv = std::fs::read_to_string(base.with_extension(format!("{table}.csv")))
                .expect("the CSV");
            let file = std::fs::File::open(base.with_extension(format!("{table}.parquet")))
                .expect("the Parquet file");
            let reader = SerializedFileReader::new(file).expect("a Parquet file");
            let mut lines = csv.lines();
            let text =
                |line: &str| -> Vec<String> { fields(line).into_iter().map(|c| c.text).collect() };
            let header = text(lines.next().expect("a header"));
            let schema = reader.metadata().file_metadata().schema_descr();
            let names: Vec<String> = schema
                .columns()
                .iter()
                .map(|c| c.name().to_owned())
                .collect();
            assert_eq!(names, header);
            let mut n = 0;
            for (row, line) in reader.get_row_iter(None).expect("rows").zip(lines) {
                let row = row.expect("a row");
                let want = text(line);
                let got: Vec<String> = row.get_column_iter().map(|(_, f)| as_csv(f)).collect();
                assert_eq!(got, want, "{table}, row {n}");
                n += 1;
            }
            assert_eq!(n, csv.lines().count() - 1, "{table}: every row");
            assert!(n > 10, "{table}: {n} rows");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_empty_player_types_table_keeps_its_columns() {
        let dir =
            std::env::temp_dir().join(format!("pitchside-parquet-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let csv = dir.join("x.player_types.csv");
        std::fs::write(&csv, "").expect("w");
        let out = dir.join("x.player_types.parquet");
        let header = pitchside_analysis::export::PLAYER_TYPES_HEADER;
        assert_eq!(
            table_to_parquet(&csv, &out, Some(header)).expect("written"),
            0
        );
        let reader =
            SerializedFileReader::new(std::fs::File::open(&out).expect("open")).expect("read");
        let schema = reader.metadata().file_metadata().schema_descr();
        let names: Vec<&str> = schema.columns().iter().map(|c| c.name()).collect();
        assert_eq!(names, header.trim_end().split(',').collect::<Vec<_>>());
        assert_eq!(
            schema.column(0).physical_type(),
            Physical::INT64,
            "the id is a whole number"
        );
        assert_eq!(schema.column(1).physical_type(), Physical::DOUBLE);
        assert_eq!(reader.metadata().file_metadata().num_rows(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_table_is_refused_with_where() {
        let dir =
            std::env::temp_dir().join(format!("pitchside-parquet-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let csv = dir.join("x.tracking.csv");
        std::fs::write(
            &csv,
            "#,cycle,playmode\n1,1,\"play_on\"\n2,two,\"play_on\"\n",
        )
        .expect("w");
        let e = csv_to_parquet(&csv, &dir.join("x.parquet")).expect_err("refused");
        assert_eq!(
            e.to_string(),
            format!(
                "{}, line 3: column cycle holds \"two\", not a whole number",
                csv.display()
            )
        );
        std::fs::write(&csv, "#,cycle\n1\n").expect("w");
        let e = csv_to_parquet(&csv, &dir.join("x.parquet")).expect_err("refused");
        assert!(
            e.to_string().contains("1 fields where the header has 2"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn quoted_fields_are_read_as_std_quoted_writes_them() {
        let f = fields(r#"1,"a\"b","c,d",,"""#);
        let texts: Vec<&str> = f.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["1", "a\"b", "c,d", "", ""]);
        let quoted: Vec<bool> = f.iter().map(|c| c.quoted).collect();
        assert_eq!(quoted, [false, true, true, false, true]);
    }
}

//! Runs the search benchmark until `tesuji bench` is wired into the binary:
//! `cargo run --release --example bench`.

fn main() {
    let nodes = tesuji::search::bench::bench(&mut std::io::stdout());
    println!("bench signature: {nodes}");
}

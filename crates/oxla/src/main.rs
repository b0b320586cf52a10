fn main() {
    println!("oxla");
}

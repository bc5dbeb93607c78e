def test_system_reads_demo_context(system_client, chunsim, alice):
    response = system_client.get("/api/context/chunsim?user=alice")
    assert response.status_code == 200, response.content
    assert response.json()["characterId"] == "chunsim"
